import { type StateQueryRequest, StateStoreNotAvailableError } from '@nest-streams/streams';
import { KafkaStreamsHost } from '../client/internals/kafka-streams.host';
import { KeyOwnerLocator } from '../ownership/internals/key-owner.locator';
import { OwnerUnreachableError } from '../errors/owner-unreachable.error';
import { StreamsModuleSettings } from '../settings/internals/streams-module.settings';
import { FakeKafkaStreams, instance, queryEndpointOf } from '../../test-support/fake-kafka-streams';
import type { InteractiveQueryClient } from './internals/interactive-query.client';
import type {
  RemoteQueryRequest,
  RemoteQueryResponse,
} from './internals/interactive-query.protocol';
import { InteractiveQueryServer } from './internals/interactive-query.server';
import { InteractiveQueryService } from './interactive-query.service';

const A = '127.0.0.1:8101';
const B = '127.0.0.1:8102';
/** The key's owner, unreachable. */
const O = '127.0.0.1:8109';

const settingsFor = (endpoint: string) =>
  new StreamsModuleSettings({
    streams: {
      applicationId: 'lag-spec',
      bootstrapServers: ['127.0.0.1:1'],
      applicationServer: endpoint,
    },
    security: { clusterSecret: 'lag-spec-cluster-secret' },
    queries: {
      remote: { port: Number(queryEndpointOf(endpoint).split(':')[1]) },
      allowStaleReads: true,
    },
  });

const locatorOf = (fake: FakeKafkaStreams, endpoint: string) => {
  const host = new KafkaStreamsHost();
  host.set(fake.asKafkaStreams(), { stores: new Map(), aggregations: [], topologyMethods: [] });
  return new KeyOwnerLocator(host, settingsFor(endpoint));
};

/** A copy answering key `a` of partition 0 as a standby, `lag` records behind. */
const standbyAnswer = (lag: number) => (request: StateQueryRequest<unknown>) => ({
  partitionResults: (request.partitions ?? [0]).map((partition) => ({
    partition,
    success: true as const,
    result: 7,
    position: {},
    active: false,
    lag,
  })),
  position: {},
});

/**
 * A standby copy's answer carries a lag measured against changelog ends read after the read
 * arrived, wherever the copy is: here (the service asks its locator first) or on another
 * instance (its query server does); when the ends do not arrive in time, 503, never a lag the
 * copy cannot vouch for. The same rule the routing interceptor follows.
 */
describe('InteractiveQueryService: a standby answers with a fresh lag', () => {
  let local: FakeKafkaStreams;
  let remote: FakeKafkaStreams;
  let service: InteractiveQueryService;

  beforeEach(() => {
    local = new FakeKafkaStreams();
    remote = new FakeKafkaStreams();
    const cluster = [
      instance(O, { active: ['0_0'], queryEndpoint: queryEndpointOf(O) }),
      instance(A, { active: [], standby: ['0_0'], queryEndpoint: queryEndpointOf(A) }),
      instance(B, { active: [], standby: ['0_0'], queryEndpoint: queryEndpointOf(B) }),
    ];
    local.instances = cluster;
    remote.instances = cluster;
    const server = new InteractiveQueryServer(
      settingsFor(B),
      remote.asKafkaStreams(),
      undefined,
      undefined,
      undefined,
      locatorOf(remote, B),
    );
    const client = {
      send: async (endpoint: string, request: RemoteQueryRequest): Promise<RemoteQueryResponse> => {
        if (endpoint !== queryEndpointOf(B))
          throw new OwnerUnreachableError(endpoint, 'connection refused');
        const answer = await server.answer(JSON.parse(JSON.stringify(request)));
        return JSON.parse(JSON.stringify(answer)) as RemoteQueryResponse;
      },
    } as unknown as InteractiveQueryClient;
    service = new InteractiveQueryService(
      local.asKafkaStreams(),
      locatorOf(local, A),
      client,
      settingsFor(A),
    );
  });

  it('reads a standby copy here only after fresh changelog ends arrived', async () => {
    // The owner is not reachable; this instance holds a standby copy.
    local.owns(O, [A], 0);
    local.answer = standbyAnswer(2);
    local.lagsHang = true;
    const read = service.lookup('stats-store', 'a');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(local.queries).toEqual([]); // waits for the ends before it reads
    local.releaseLags();
    await expect(read).resolves.toMatchObject({ value: 7, servedBy: A, active: false, lag: 2 });
  });

  it('answers 503 (retriable) when the ends do not arrive in time, here or on the other instance', async () => {
    local.owns(O, [A], 0);
    local.answer = standbyAnswer(0);
    local.lagsHang = true;
    await expect(service.lookup('stats-store', 'a')).rejects.toBeInstanceOf(
      StateStoreNotAvailableError,
    );
    expect(local.queries).toEqual([]);
    local.releaseLags();

    local.owns(O, [B], 0);
    remote.answer = standbyAnswer(0);
    remote.lagsHang = true;
    await expect(service.lookup('stats-store', 'a')).rejects.toMatchObject({
      retriable: true,
    });
    expect(remote.queries).toEqual([]);
    remote.releaseLags();
    await expect(service.lookup('stats-store', 'a')).resolves.toMatchObject({
      value: 7,
      servedBy: B,
      active: false,
      lag: 0,
    });
  }, 10_000);
});

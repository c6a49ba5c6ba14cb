// Three fake instances of one application (A here, B and C remote) and the query service of A,
// its remote queries carried through B's and C's real query servers as JSON.
import {
  FailureReason,
  type QueryResult,
  SessionWindow,
  type StateQueryRequest,
  Windowed,
} from '@nest-streams/streams';
import { KafkaStreamsHost } from '../src/client/internals/kafka-streams.host';
import { OwnerUnreachableError } from '../src/errors/owner-unreachable.error';
import { KeyOwnerLocator } from '../src/ownership/internals/key-owner.locator';
import type { InteractiveQueryClient } from '../src/queries/internals/interactive-query.client';
import type {
  RemoteQueryRequest,
  RemoteQueryResponse,
} from '../src/queries/internals/interactive-query.protocol';
import { InteractiveQueryServer } from '../src/queries/internals/interactive-query.server';
import { InteractiveQueryService } from '../src/queries/interactive-query.service';
import { StreamsModuleSettings } from '../src/settings/internals/streams-module.settings';
import type { StreamsModuleOptions } from '../src/settings/streams-module-options.interface';
import { FakeKafkaStreams, instance, queryEndpointOf } from './fake-kafka-streams';

export const A = '127.0.0.1:8001';
export const B = '127.0.0.1:8002';
export const C = '127.0.0.1:8003';

/** Module settings of the instance at `endpoint`, its query port beside it. */
export const settingsFor = (endpoint: string, extra: Partial<StreamsModuleOptions> = {}) =>
  new StreamsModuleSettings({
    streams: {
      applicationId: 'iq-spec',
      bootstrapServers: ['127.0.0.1:1'],
      applicationServer: endpoint,
    },
    security: { clusterSecret: 'iq-spec-cluster-secret' },
    ...extra,
    queries: {
      remote: { port: Number(queryEndpointOf(endpoint).split(':')[1]) },
      ...extra.queries,
    },
  });

/** An instance whose store holds `data` per partition (key, range and session queries). */
export function member(
  endpoint: string,
  data: Record<number, Record<string, number>>,
): FakeKafkaStreams {
  const fake = new FakeKafkaStreams();
  fake.answer = (request: StateQueryRequest<unknown>) => {
    const partitions = request.partitions ?? Object.keys(data).map(Number);
    return {
      partitionResults: partitions.map((partition): QueryResult<unknown> => {
        const rows = data[partition];
        if (!rows) {
          return {
            partition,
            success: false,
            failureReason: FailureReason.NOT_PRESENT,
            failureMessage: `partition ${partition} is not hosted at ${endpoint}`,
            position: {},
            active: false,
          };
        }
        const q = request.query;
        if (q.type === 'session') {
          const sessions = fake.sessions.get(partition)?.[String(q.key)] ?? [];
          const result = sessions.map(([start, end, value]) => ({
            key: new Windowed(q.key, new SessionWindow(start, end)),
            value,
          }));
          return { partition, success: true, result, position: {}, active: true };
        }
        if (q.type !== 'key' && q.type !== 'range') throw new Error(`unexpected ${q.type} query`);
        // A range answers only the keys within its bounds, in the order it asks for.
        const inRange = ([key]: [string, number]) =>
          q.type === 'range' &&
          (q.lower === undefined || key >= String(q.lower)) &&
          (q.upper === undefined || key <= String(q.upper));
        const entries = Object.entries(rows)
          .filter(inRange)
          .sort(([x], [y]) => (x < y ? -1 : 1))
          .map(([key, value]) => ({ key, value }));
        if (q.type === 'range' && q.descending) entries.reverse();
        const result = q.type === 'key' ? (rows[String(q.key)] ?? null) : entries;
        return {
          partition,
          success: true,
          result,
          position: { events: { [partition]: 10 } },
          active: true,
        };
      }),
      position: {},
    };
  };
  return fake;
}

/**
 * A's `InteractiveQueryService` over three instances: A runs partitions 0 and 1 (standby of 2),
 * B 2 and 3 (standby of 4), C 4 and 5 (standby of 0). Requests A sends are kept in `sent`; an
 * endpoint in `unreachable` refuses the connection. Change `members` and call `build()` again
 * to rebuild the service over them.
 */
export class QueryClusterFixture {
  readonly members = new Map<string, FakeKafkaStreams>([
    [A, member(A, { 0: { a: 1, d: 4 }, 1: {} })],
    [B, member(B, { 2: { b: 2 }, 3: { e: 5 } })],
    [C, member(C, { 4: { c: 3 }, 5: { f: 6 } })],
  ]);
  readonly unreachable = new Set<string>();
  readonly sent: RemoteQueryRequest[] = [];
  service!: InteractiveQueryService;
  local!: FakeKafkaStreams;

  constructor() {
    const cluster = [
      instance(A, { active: ['0_0', '0_1'], standby: ['0_2'], queryEndpoint: queryEndpointOf(A) }),
      instance(B, { active: ['0_2', '0_3'], standby: ['0_4'], queryEndpoint: queryEndpointOf(B) }),
      instance(C, { active: ['0_4', '0_5'], standby: ['0_0'], queryEndpoint: queryEndpointOf(C) }),
    ];
    for (const fake of this.members.values()) fake.instances = cluster;
    this.build();
  }

  /** (Re)builds A's service over the current members, with A's extra module options. */
  build(extra: Partial<StreamsModuleOptions> = {}): void {
    const settings = settingsFor(A, extra);
    this.local = this.members.get(A)!;
    const servers = new Map(
      [B, C].map((e) => [
        queryEndpointOf(e),
        new InteractiveQueryServer(settingsFor(e), this.members.get(e)!.asKafkaStreams()),
      ]),
    );
    const client = {
      send: async (endpoint: string, request: RemoteQueryRequest): Promise<RemoteQueryResponse> => {
        this.sent.push(request);
        if (this.unreachable.has(endpoint))
          throw new OwnerUnreachableError(endpoint, 'connection refused');
        // Through JSON, as a transport would carry it.
        const answer = await servers.get(endpoint)!.answer(JSON.parse(JSON.stringify(request)));
        return JSON.parse(JSON.stringify(answer)) as RemoteQueryResponse;
      },
    } as unknown as InteractiveQueryClient;
    const host = new KafkaStreamsHost();
    host.set(this.local.asKafkaStreams(), {
      stores: new Map(),
      aggregations: [],
      topologyMethods: [],
    });
    const locator = new KeyOwnerLocator(host, settings);
    this.service = new InteractiveQueryService(
      this.local.asKafkaStreams(),
      locator,
      client,
      settings,
    );
  }
}

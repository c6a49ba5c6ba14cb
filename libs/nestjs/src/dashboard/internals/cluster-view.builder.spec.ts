import type { KafkaStreams, StreamsMetadata } from '@nest-streams/streams';
import type { KafkaStreamsHost } from '../../client/internals/kafka-streams.host';
import { StreamsModuleSettings } from '../../settings/internals/streams-module.settings';
import { instance, queryEndpointOf } from '../../../test-support/fake-kafka-streams';
import type { InteractiveQueryClient } from '../../queries/internals/interactive-query.client';
import type {
  RemoteQueryRequest,
  RemoteQueryResponse,
} from '../../queries/internals/interactive-query.protocol';
import { toWire } from '../../queries/internals/wire-codec';
import { OwnerUnreachableError } from '../../errors/owner-unreachable.error';
import { ClusterViewBuilder } from './cluster-view.builder';
import type { InstanceReport, InstanceReporter } from './instance-reporter';

const A = '127.0.0.1:8001';
const B = '127.0.0.1:8002';
const C = '127.0.0.1:8003';

const report = (host: string, extra: Partial<InstanceReport> = {}): InstanceReport => ({
  host,
  state: 'RUNNING',
  at: 1,
  rebalances: 2,
  lastRebalanceAt: 100,
  lastRebalanceMs: 40,
  tasks: { active: [], standby: [], warmup: [], restoring: [] },
  lags: [],
  restores: [],
  figures: [],
  ...extra,
});

describe('the cluster view of the page', () => {
  let metadata: StreamsMetadata[];
  let sent: RemoteQueryRequest[];
  let answers: Map<string, () => RemoteQueryResponse>;
  let builder: ClusterViewBuilder;

  beforeEach(() => {
    metadata = [
      instance(A, { active: ['0_0', '0_1'], standby: ['0_2'], queryEndpoint: queryEndpointOf(A) }),
      instance(B, { active: ['0_2'], standby: ['0_0', '0_1'], queryEndpoint: queryEndpointOf(B) }),
      instance(C, { active: [], standby: [], queryEndpoint: queryEndpointOf(C) }),
    ];
    sent = [];
    answers = new Map([
      [
        queryEndpointOf(B),
        () => ({
          ok: true,
          servedBy: B,
          result: toWire(
            report(B, {
              tasks: {
                active: ['0_2'],
                standby: ['0_0', '0_1'],
                warmup: ['0_1'],
                restoring: ['0_2'],
              },
              lags: [
                { store: 'stats-store', partition: 0, lag: 3 },
                { store: 'stats-store', partition: 1, lag: 250 },
                { store: 'stats-store', partition: 2, lag: 60 },
              ],
              restores: [{ store: 'stats-store', partition: 2, restored: 40, total: 100 }],
            }),
          ),
        }),
      ],
      [
        queryEndpointOf(C),
        () => {
          throw new OwnerUnreachableError(queryEndpointOf(C), 'connection refused');
        },
      ],
    ]);
    const settings = new StreamsModuleSettings({
      streams: {
        applicationId: 'view-spec',
        bootstrapServers: ['127.0.0.1:1'],
        applicationServer: A,
      },
      queries: { remote: { port: 9001 } },
      security: { clusterSecret: 'dashboard-spec-cluster-secret' },
      dashboard: { historyMs: 60_000 },
    });
    const streams = {
      topology: { subtopologies: () => [{ id: 0, stores: ['stats-store'] }] },
      metadataForAllStreamsClients: () => metadata,
    } as unknown as KafkaStreams;
    const host = { created: true, streams } as unknown as KafkaStreamsHost;
    const reporter = {
      report: async () =>
        report(A, {
          tasks: { active: ['0_0', '0_1'], standby: ['0_2'], warmup: [], restoring: [] },
          lags: [{ store: 'stats-store', partition: 2, lag: 0 }],
        }),
    } as unknown as InstanceReporter;
    const client = {
      send: async (endpoint: string, request: RemoteQueryRequest) => {
        sent.push(request);
        return answers.get(endpoint)!();
      },
    } as unknown as InteractiveQueryClient;
    builder = new ClusterViewBuilder(settings, host, reporter, client);
  });

  it('lists every instance of the metadata with its copies and its own report', async () => {
    const view = await builder.view(1_000);
    expect(view.applicationId).toBe('view-spec');
    expect(view.servedBy).toBe(A);
    expect(view.figuresWindowMs).toBe(60_000);
    expect(view.stores).toEqual([{ name: 'stats-store', partitions: [0, 1, 2] }]);
    expect(view.instances.map((i) => [i.host, i.self, i.status])).toEqual([
      [A, true, 'up'],
      [B, false, 'up'],
      [C, false, 'unreachable'],
    ]);
    const [a, b, c] = view.instances;
    expect(a.stores).toEqual({
      'stats-store': [
        { partition: 0, role: 'active' },
        { partition: 1, role: 'active' },
        { partition: 2, role: 'standby', lag: 0 },
      ],
    });
    // B: standby lags, a warm-up replica, an active copy restoring with its progress.
    expect(b.stores).toEqual({
      'stats-store': [
        { partition: 0, role: 'standby', lag: 3 },
        { partition: 1, role: 'warmup', lag: 250 },
        { partition: 2, role: 'active', lag: 60, restoring: { restored: 40, total: 100 } },
      ],
    });
    expect(b.report?.rebalances).toBe(2);
    // C is in the metadata but does not answer: shown as such, with what the metadata says.
    expect(c.problem).toContain('connection refused');
    expect(c.report).toBeUndefined();
    expect(c.stores).toEqual({});
    // Reports travel as one more request kind of the query transport, to each instance's endpoint.
    expect(sent).toEqual([
      { version: 1, target: queryEndpointOf(B), from: queryEndpointOf(A), instanceReport: true },
      { version: 1, target: queryEndpointOf(C), from: queryEndpointOf(A), instanceReport: true },
    ]);
  });

  it('shows an instance that left the metadata as left, for historyMs', async () => {
    await builder.view(1_000);
    metadata = metadata.filter((m) => m.hostInfo.toString() !== B);
    const later = await builder.view(5_000);
    expect(later.instances.map((i) => [i.host, i.status])).toEqual([
      [A, 'up'],
      [C, 'unreachable'],
      [B, 'left'],
    ]);
    expect(later.instances[2]).toEqual({
      host: B,
      self: false,
      status: 'left',
      lastSeenAt: 1_000,
      stores: {},
    });
    const muchLater = await builder.view(70_000);
    expect(muchLater.instances.map((i) => i.host)).toEqual([A, C]);
  });

  it('says why an instance sends no report', async () => {
    answers.set(queryEndpointOf(B), () => ({
      ok: false,
      servedBy: B,
      failure: { code: 'BAD_QUERY', retriable: false, message: 'not a well-formed query request' },
    }));
    metadata[2] = instance(C, { active: ['0_9'] });
    const view = await builder.view(1_000);
    const b = view.instances.find((i) => i.host === B)!;
    expect(b.status).toBe('up');
    expect(b.problem).toBe('sends no report: not a well-formed query request (BAD_QUERY)');
    // Without a report the copies still come from the metadata; lags are unknown.
    expect(b.stores['stats-store']).toEqual([
      { partition: 0, role: 'standby' },
      { partition: 1, role: 'standby' },
      { partition: 2, role: 'active' },
    ]);
    const c = view.instances.find((i) => i.host === C)!;
    expect(c.problem).toBe('serves no instance-to-instance queries (queries.remote is off there)');
    expect(c.stores['stats-store']).toEqual([{ partition: 9, role: 'active' }]);
  });

  it('shows this instance from its own report before it is in any metadata', async () => {
    metadata = [];
    const view = await builder.view(1_000);
    expect(view.instances).toEqual([
      expect.objectContaining({
        host: A,
        self: true,
        status: 'up',
        stores: {
          'stats-store': [
            { partition: 0, role: 'active' },
            { partition: 1, role: 'active' },
            { partition: 2, role: 'standby', lag: 0 },
          ],
        },
      }),
    ]);
    expect(sent).toEqual([]);
  });
});

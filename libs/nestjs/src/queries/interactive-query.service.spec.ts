import {
  FailureReason,
  KeyQueryMetadata,
  type QueryResult,
  SessionWindow,
  type StateQueryRequest,
  StateStoreMigratedError,
  StateStoreNotAvailableError,
  Windowed,
} from '@nest-streams/streams';
import { KafkaStreamsHost } from '../client/internals/kafka-streams.host';
import { KeyOwnerLocator } from '../ownership/internals/key-owner.locator';
import { OwnerUnreachableError } from '../errors/owner-unreachable.error';
import { StreamsModuleSettings } from '../settings/internals/streams-module.settings';
import type { StreamsModuleOptions } from '../settings/streams-module-options.interface';
import { FakeKafkaStreams, instance, queryEndpointOf } from '../../test-support/fake-kafka-streams';
import type { InteractiveQueryClient } from './internals/interactive-query.client';
import {
  decodeRemoteQueryRequest,
  type RemoteQueryRequest,
  type RemoteQueryResponse,
} from './internals/interactive-query.protocol';
import { InteractiveQueryServer } from './internals/interactive-query.server';
import { InteractiveQueryService } from './interactive-query.service';

const A = '127.0.0.1:8001';
const B = '127.0.0.1:8002';
const C = '127.0.0.1:8003';

const settingsFor = (endpoint: string, extra: Partial<StreamsModuleOptions> = {}) =>
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

/** An instance whose store holds `data` per partition. */
function member(endpoint: string, data: Record<number, Record<string, number>>): FakeKafkaStreams {
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

describe('InteractiveQueryService', () => {
  let members: Map<string, FakeKafkaStreams>;
  let unreachable: Set<string>;
  let sent: RemoteQueryRequest[];
  let service: InteractiveQueryService;
  let local: FakeKafkaStreams;

  const build = (extra: Partial<StreamsModuleOptions> = {}) => {
    const settings = settingsFor(A, extra);
    local = members.get(A)!;
    const servers = new Map(
      [B, C].map((e) => [
        queryEndpointOf(e),
        new InteractiveQueryServer(settingsFor(e), members.get(e)!.asKafkaStreams()),
      ]),
    );
    const client = {
      send: async (endpoint: string, request: RemoteQueryRequest): Promise<RemoteQueryResponse> => {
        sent.push(request);
        if (unreachable.has(endpoint))
          throw new OwnerUnreachableError(endpoint, 'connection refused');
        // Through JSON, as a transport would carry it.
        const answer = await servers.get(endpoint)!.answer(JSON.parse(JSON.stringify(request)));
        return JSON.parse(JSON.stringify(answer)) as RemoteQueryResponse;
      },
    } as unknown as InteractiveQueryClient;
    const host = new KafkaStreamsHost();
    host.set(local.asKafkaStreams(), { stores: new Map(), aggregations: [], topologyMethods: [] });
    const locator = new KeyOwnerLocator(host, settings);
    service = new InteractiveQueryService(local.asKafkaStreams(), locator, client, settings);
  };

  beforeEach(() => {
    members = new Map([
      [A, member(A, { 0: { a: 1, d: 4 }, 1: {} })],
      [B, member(B, { 2: { b: 2 }, 3: { e: 5 } })],
      [C, member(C, { 4: { c: 3 }, 5: { f: 6 } })],
    ]);
    const cluster = [
      instance(A, { active: ['0_0', '0_1'], standby: ['0_2'], queryEndpoint: queryEndpointOf(A) }),
      instance(B, { active: ['0_2', '0_3'], standby: ['0_4'], queryEndpoint: queryEndpointOf(B) }),
      instance(C, { active: ['0_4', '0_5'], standby: ['0_0'], queryEndpoint: queryEndpointOf(C) }),
    ];
    for (const fake of members.values()) fake.instances = cluster;
    unreachable = new Set();
    sent = [];
    build();
  });

  describe('a global store', () => {
    const whole = (request: StateQueryRequest<unknown>) => ({
      partitionResults: [],
      globalResult: {
        partition: -1,
        success: true,
        result: request.query.type === 'key' ? 'north' : [{ key: 'r1', value: 'north' }],
        position: { regions: { 0: 3 } },
        active: true,
        lag: 0,
      },
      position: { regions: { 0: 3 } },
    });

    it('reads a key here, from globalResult, with no partition', async () => {
      local.answer = whole;
      local.owns(A, [], KeyQueryMetadata.UNKNOWN_PARTITION);
      expect(await service.lookup('regions-global', 'r1')).toEqual({
        value: 'north',
        servedBy: A,
        partition: -1,
        active: true,
        lag: 0,
      });
      expect(local.queries.map((q) => [q.partitions, q.requireActive])).toEqual([[[-1], true]]);
      expect(sent).toEqual([]);
    });

    it('answers all() from this instance alone, asking no other', async () => {
      local.answer = whole;
      expect(await service.all('regions-global')).toEqual({
        entries: [{ key: 'r1', value: 'north' }],
        failures: [],
        complete: true,
        servedBy: [A],
        position: { regions: { 0: 3 } },
      });
      expect(local.queries.map((q) => q.partitions)).toEqual([undefined]);
      expect(sent).toEqual([]);
    });
  });

  describe('scatter-gather', () => {
    it("merges every instance's active partitions, sorted by key", async () => {
      const result = await service.all<string, number>('stats-store');
      expect(result.entries).toEqual(
        ['a', 'b', 'c', 'd', 'e', 'f'].map((key, i) => ({ key, value: i + 1 })),
      );
      expect(result.complete).toBe(true);
      expect(result.failures).toEqual([]);
      expect(result.servedBy).toEqual([A, B, C]);
      expect(result.position).toEqual({ events: { 0: 10, 1: 10, 2: 10, 3: 10, 4: 10, 5: 10 } });
      // Each instance asked for exactly its active partitions, active copies only.
      expect(local.queries.map((q) => [q.partitions, q.requireActive])).toEqual([[[0, 1], true]]);
      expect(sent.map((s) => s.target).sort()).toEqual([queryEndpointOf(B), queryEndpointOf(C)]);
    });

    it('passes the range bounds to every instance: keys outside them are never answered', async () => {
      const result = await service.range<string, number>('stats-store', 'b', 'e');
      expect(result.entries).toEqual([
        { key: 'b', value: 2 },
        { key: 'c', value: 3 },
        { key: 'd', value: 4 },
        { key: 'e', value: 5 },
      ]);
      expect(result.complete).toBe(true);
      const bounds = sent.map((s) => {
        const decoded = decodeRemoteQueryRequest(s);
        const q = (decoded && 'request' in decoded ? decoded.request.query : {}) as {
          lower?: unknown;
          upper?: unknown;
        };
        return [q.lower, q.upper];
      });
      expect(bounds).toEqual([
        ['b', 'e'],
        ['b', 'e'],
      ]);
      const lowerOnly = await service.range<string, number>('stats-store', 'd', undefined);
      expect(lowerOnly.entries.map((e) => e.key)).toEqual(['d', 'e', 'f']);
    });

    it('reports an unreachable instance with its partitions, never dropping it silently', async () => {
      unreachable.add(queryEndpointOf(C));
      const result = await service.range<string, number>('stats-store', 'a', 'z');
      expect(result.entries.map((e) => e.key)).toEqual(['a', 'b', 'd', 'e']);
      expect(result.complete).toBe(false);
      expect(result.failures).toEqual([
        expect.objectContaining({
          instance: C,
          partitions: [4, 5],
          code: 'OWNER_UNREACHABLE',
          retriable: true,
        }),
      ]);
      expect(result.servedBy).toEqual([A, B]);
    });

    it('reports a partition an instance no longer holds', async () => {
      members.set(B, member(B, { 2: { b: 2 } }));
      build();
      const result = await service.all<string, number>('stats-store');
      expect(result.entries.map((e) => e.key)).toEqual(['a', 'b', 'c', 'd', 'f']);
      expect(result.failures).toEqual([
        expect.objectContaining({
          instance: B,
          partitions: [3],
          code: 'STORE_MIGRATED',
          retriable: true,
        }),
      ]);
    });

    it('reports partitions no instance runs actively', async () => {
      const cluster = local.instances.map((m) =>
        m.hostInfo.toString() === C
          ? instance(C, { standby: ['0_4', '0_5'], queryEndpoint: queryEndpointOf(C) })
          : m,
      );
      local.instances = cluster;
      const result = await service.all<string, number>('stats-store');
      expect(result.failures).toEqual([
        expect.objectContaining({
          instance: 'none',
          partitions: [4, 5],
          code: 'STORE_NOT_AVAILABLE',
        }),
      ]);
      expect(result.complete).toBe(false);
    });

    it("reports partitions the metadata does not name at all, by the store's partition count", async () => {
      // A host map without C's tasks at all (as while the group rebalances): without the count,
      // the answer would be A's and B's partitions, marked complete.
      local.instances = local.instances.filter((m) => m.hostInfo.toString() !== C);
      local.instances = local.instances.map((m) =>
        m.hostInfo.toString() === B
          ? instance(B, { active: ['0_2', '0_3'], queryEndpoint: queryEndpointOf(B) })
          : m,
      );
      local.storePartitions = 6;
      const result = await service.all<string, number>('stats-store');
      expect(result.entries.map((e) => e.key)).toEqual(['a', 'b', 'd', 'e']);
      expect(result.complete).toBe(false);
      expect(result.failures).toEqual([
        expect.objectContaining({
          instance: 'none',
          partitions: [4, 5],
          code: 'STORE_NOT_AVAILABLE',
          retriable: true,
        }),
      ]);
      expect(result.servedBy).toEqual([A, B]);
    });

    it('throws a retriable error when no instance runs the store', async () => {
      local.instances = [];
      await expect(service.all('stats-store')).rejects.toBeInstanceOf(StateStoreNotAvailableError);
    });
  });

  describe('session fetch', () => {
    it('reads sessions here or on the owner, with Windowed keys', async () => {
      members.get(A)!.sessions.set(0, { a: [[1, 5, 2]] });
      members.get(B)!.sessions.set(3, {
        e: [
          [10, 20, 3],
          [40, 40, 1],
        ],
      });
      build();
      local.owns(A, [], 0);
      const here = await service.fetchSessions<string, number>('stats-store', 'a');
      expect(here).toEqual([{ key: new Windowed('a', new SessionWindow(1, 5)), value: 2 }]);
      expect(sent).toEqual([]);

      local.owns(B, [], 3);
      const there = await service.fetchSessions<string, number>('stats-store', 'e');
      expect(there).toEqual([
        { key: new Windowed('e', new SessionWindow(10, 20)), value: 3 },
        { key: new Windowed('e', new SessionWindow(40, 40)), value: 1 },
      ]);
      expect(there[0].key).toBeInstanceOf(Windowed);
      // One IQv2 session query, for the key's partition, active copies only.
      expect(decodeRemoteQueryRequest(sent[0])).toMatchObject({
        request: {
          storeName: 'stats-store',
          query: { type: 'session', key: 'e' },
          partitions: [3],
          requireActive: true,
        },
      });

      // The owner no longer holds the partition: the engine's typed, retriable error.
      local.owns(B, [], 4);
      await expect(service.fetchSessions('stats-store', 'x')).rejects.toBeInstanceOf(
        StateStoreMigratedError,
      );
    });
  });

  describe('single key', () => {
    it('reads locally when this instance owns the key', async () => {
      local.owns(A, [], 0);
      await expect(service.get('stats-store', 'a')).resolves.toBe(1);
      expect(local.queries).toEqual([
        expect.objectContaining({ partitions: [0], requireActive: true }),
      ]);
      expect(sent).toEqual([]);
    });

    it("asks the owner over the transport, for the key's partition only", async () => {
      local.owns(B, [], 3);
      await expect(service.get('stats-store', 'e')).resolves.toBe(5);
      expect(sent).toHaveLength(1);
      expect(sent[0].target).toBe(queryEndpointOf(B));
      expect(local.queries).toEqual([]);
      await expect(service.get('stats-store', 'nope')).resolves.toBeUndefined();
    });

    it("throws the engine's retriable errors", async () => {
      local.metadata = KeyQueryMetadata.NOT_AVAILABLE;
      await expect(service.get('stats-store', 'a')).rejects.toBeInstanceOf(
        StateStoreNotAvailableError,
      );
      local.owns(B, [], 4);
      await expect(service.get('stats-store', 'c')).rejects.toBeInstanceOf(StateStoreMigratedError);
      local.owns(C, [], 4);
      unreachable.add(queryEndpointOf(C));
      await expect(service.get('stats-store', 'c')).rejects.toBeInstanceOf(OwnerUnreachableError);
    });

    it('reads the copy a given instance holds with copyAt, saying which copy answered', async () => {
      local.owns(A, [B], 0);
      members.get(B)!.answer = () => ({
        partitionResults: [
          { partition: 0, success: true, result: 7, position: {}, active: false, lag: 3 },
        ],
        position: {},
      });
      await expect(service.lookup('stats-store', 'a', { copyAt: B })).resolves.toEqual({
        value: 7,
        servedBy: B,
        partition: 0,
        active: false,
        lag: 3,
      });
      expect(sent.at(-1)?.target).toBe(queryEndpointOf(B));
      expect(members.get(B)!.queries.at(-1)).toMatchObject({
        partitions: [0],
        requireActive: false,
      });
      await expect(service.lookup('stats-store', 'a', { copyAt: A })).resolves.toEqual({
        value: 1,
        servedBy: A,
        partition: 0,
        active: true,
        lag: 0,
      });
      expect(local.queries.at(-1)).toMatchObject({ partitions: [0], requireActive: true });
      // An instance that is not in the metadata, and an address that is none.
      await expect(
        service.lookup('stats-store', 'a', { copyAt: '127.0.0.1:8009' }),
      ).rejects.toBeInstanceOf(StateStoreMigratedError);
      await expect(service.lookup('stats-store', 'a', { copyAt: 'nowhere' })).rejects.toMatchObject(
        { code: 'BAD_QUERY_ENDPOINT', retriable: false },
      );
    });

    it('falls back to a standby copy when the owner is unreachable and stale reads are allowed', async () => {
      local.owns(C, [A], 0);
      unreachable.add(queryEndpointOf(C));
      await expect(service.get('stats-store', 'a', { allowStaleReads: true })).resolves.toBe(1);
      expect(local.queries).toEqual([
        expect.objectContaining({ partitions: [0], requireActive: false }),
      ]);

      local.owns(C, [B], 2);
      await expect(service.get('stats-store', 'b', { allowStaleReads: true })).resolves.toBe(2);
      expect(sent.at(-1)?.target).toBe(queryEndpointOf(B));
    });
  });
});

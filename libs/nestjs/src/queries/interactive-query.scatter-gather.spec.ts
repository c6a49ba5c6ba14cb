import { StateStoreNotAvailableError } from '@nest-streams/streams';
import { instance, queryEndpointOf } from '../../test-support/fake-kafka-streams';
import { A, B, C, member, QueryClusterFixture } from '../../test-support/query-cluster.fixture';
import { decodeRemoteQueryRequest } from './internals/interactive-query.protocol';

describe('InteractiveQueryService scatter-gather', () => {
  let q: QueryClusterFixture;
  beforeEach(() => {
    q = new QueryClusterFixture();
  });

  it("merges every instance's active partitions, sorted by key", async () => {
    const result = await q.service.all<string, number>('stats-store');
    expect(result.entries).toEqual(
      ['a', 'b', 'c', 'd', 'e', 'f'].map((key, i) => ({ key, value: i + 1 })),
    );
    expect(result.complete).toBe(true);
    expect(result.failures).toEqual([]);
    expect(result.servedBy).toEqual([A, B, C]);
    expect(result.position).toEqual({ events: { 0: 10, 1: 10, 2: 10, 3: 10, 4: 10, 5: 10 } });
    // Each instance asked for exactly its active partitions, active copies only.
    expect(q.local.queries.map((q) => [q.partitions, q.requireActive])).toEqual([[[0, 1], true]]);
    expect(q.sent.map((s) => s.target).sort()).toEqual([queryEndpointOf(B), queryEndpointOf(C)]);
  });

  it('passes the range bounds to every instance: keys outside them are never answered', async () => {
    const result = await q.service.range<string, number>('stats-store', 'b', 'e');
    expect(result.entries).toEqual([
      { key: 'b', value: 2 },
      { key: 'c', value: 3 },
      { key: 'd', value: 4 },
      { key: 'e', value: 5 },
    ]);
    expect(result.complete).toBe(true);
    const bounds = q.sent.map((s) => {
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
    const lowerOnly = await q.service.range<string, number>('stats-store', 'd', undefined);
    expect(lowerOnly.entries.map((e) => e.key)).toEqual(['d', 'e', 'f']);
  });

  it('reports an unreachable instance with its partitions, never dropping it silently', async () => {
    q.unreachable.add(queryEndpointOf(C));
    const result = await q.service.range<string, number>('stats-store', 'a', 'z');
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
    q.members.set(B, member(B, { 2: { b: 2 } }));
    q.build();
    const result = await q.service.all<string, number>('stats-store');
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
    const cluster = q.local.instances.map((m) =>
      m.hostInfo.toString() === C
        ? instance(C, { standby: ['0_4', '0_5'], queryEndpoint: queryEndpointOf(C) })
        : m,
    );
    q.local.instances = cluster;
    const result = await q.service.all<string, number>('stats-store');
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
    q.local.instances = q.local.instances.filter((m) => m.hostInfo.toString() !== C);
    q.local.instances = q.local.instances.map((m) =>
      m.hostInfo.toString() === B
        ? instance(B, { active: ['0_2', '0_3'], queryEndpoint: queryEndpointOf(B) })
        : m,
    );
    q.local.storePartitions = 6;
    const result = await q.service.all<string, number>('stats-store');
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
    q.local.instances = [];
    await expect(q.service.all('stats-store')).rejects.toBeInstanceOf(StateStoreNotAvailableError);
  });
});

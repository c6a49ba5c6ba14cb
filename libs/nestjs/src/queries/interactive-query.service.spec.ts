import {
  KeyQueryMetadata,
  SessionWindow,
  type StateQueryRequest,
  StateStoreMigratedError,
  StateStoreNotAvailableError,
  Windowed,
} from '@nest-streams/streams';
import { OwnerUnreachableError } from '../errors/owner-unreachable.error';
import { queryEndpointOf } from '../../test-support/fake-kafka-streams';
import { A, B, C, QueryClusterFixture } from '../../test-support/query-cluster.fixture';
import { decodeRemoteQueryRequest } from './internals/interactive-query.protocol';

describe('InteractiveQueryService', () => {
  let q: QueryClusterFixture;
  beforeEach(() => {
    q = new QueryClusterFixture();
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
      q.local.answer = whole;
      q.local.owns(A, [], KeyQueryMetadata.UNKNOWN_PARTITION);
      expect(await q.service.lookup('regions-global', 'r1')).toEqual({
        value: 'north',
        servedBy: A,
        partition: -1,
        active: true,
        lag: 0,
      });
      expect(q.local.queries.map((q) => [q.partitions, q.requireActive])).toEqual([[[-1], true]]);
      expect(q.sent).toEqual([]);
    });

    it('answers all() from this instance alone, asking no other', async () => {
      q.local.answer = whole;
      expect(await q.service.all('regions-global')).toEqual({
        entries: [{ key: 'r1', value: 'north' }],
        failures: [],
        complete: true,
        servedBy: [A],
        position: { regions: { 0: 3 } },
      });
      expect(q.local.queries.map((q) => q.partitions)).toEqual([undefined]);
      expect(q.sent).toEqual([]);
    });
  });

  describe('session fetch', () => {
    it('reads sessions here or on the owner, with Windowed keys', async () => {
      q.members.get(A)!.sessions.set(0, { a: [[1, 5, 2]] });
      q.members.get(B)!.sessions.set(3, {
        e: [
          [10, 20, 3],
          [40, 40, 1],
        ],
      });
      q.build();
      q.local.owns(A, [], 0);
      const here = await q.service.fetchSessions<string, number>('stats-store', 'a');
      expect(here).toEqual([{ key: new Windowed('a', new SessionWindow(1, 5)), value: 2 }]);
      expect(q.sent).toEqual([]);

      q.local.owns(B, [], 3);
      const there = await q.service.fetchSessions<string, number>('stats-store', 'e');
      expect(there).toEqual([
        { key: new Windowed('e', new SessionWindow(10, 20)), value: 3 },
        { key: new Windowed('e', new SessionWindow(40, 40)), value: 1 },
      ]);
      expect(there[0].key).toBeInstanceOf(Windowed);
      // One IQv2 session query, for the key's partition, active copies only.
      expect(decodeRemoteQueryRequest(q.sent[0])).toMatchObject({
        request: {
          storeName: 'stats-store',
          query: { type: 'session', key: 'e' },
          partitions: [3],
          requireActive: true,
        },
      });

      // The owner no longer holds the partition: the engine's typed, retriable error.
      q.local.owns(B, [], 4);
      await expect(q.service.fetchSessions('stats-store', 'x')).rejects.toBeInstanceOf(
        StateStoreMigratedError,
      );
    });
  });

  describe('single key', () => {
    it('reads locally when this instance owns the key', async () => {
      q.local.owns(A, [], 0);
      await expect(q.service.get('stats-store', 'a')).resolves.toBe(1);
      expect(q.local.queries).toEqual([
        expect.objectContaining({ partitions: [0], requireActive: true }),
      ]);
      expect(q.sent).toEqual([]);
    });

    it("asks the owner over the transport, for the key's partition only", async () => {
      q.local.owns(B, [], 3);
      await expect(q.service.get('stats-store', 'e')).resolves.toBe(5);
      expect(q.sent).toHaveLength(1);
      expect(q.sent[0].target).toBe(queryEndpointOf(B));
      expect(q.local.queries).toEqual([]);
      await expect(q.service.get('stats-store', 'nope')).resolves.toBeUndefined();
    });

    it("throws the engine's retriable errors", async () => {
      q.local.metadata = KeyQueryMetadata.NOT_AVAILABLE;
      await expect(q.service.get('stats-store', 'a')).rejects.toBeInstanceOf(
        StateStoreNotAvailableError,
      );
      q.local.owns(B, [], 4);
      await expect(q.service.get('stats-store', 'c')).rejects.toBeInstanceOf(
        StateStoreMigratedError,
      );
      q.local.owns(C, [], 4);
      q.unreachable.add(queryEndpointOf(C));
      await expect(q.service.get('stats-store', 'c')).rejects.toBeInstanceOf(OwnerUnreachableError);
    });

    it('reads the copy a given instance holds with copyAt, saying which copy answered', async () => {
      q.local.owns(A, [B], 0);
      q.members.get(B)!.answer = () => ({
        partitionResults: [
          { partition: 0, success: true, result: 7, position: {}, active: false, lag: 3 },
        ],
        position: {},
      });
      await expect(q.service.lookup('stats-store', 'a', { copyAt: B })).resolves.toEqual({
        value: 7,
        servedBy: B,
        partition: 0,
        active: false,
        lag: 3,
      });
      expect(q.sent.at(-1)?.target).toBe(queryEndpointOf(B));
      expect(q.members.get(B)!.queries.at(-1)).toMatchObject({
        partitions: [0],
        requireActive: false,
      });
      await expect(q.service.lookup('stats-store', 'a', { copyAt: A })).resolves.toEqual({
        value: 1,
        servedBy: A,
        partition: 0,
        active: true,
        lag: 0,
      });
      expect(q.local.queries.at(-1)).toMatchObject({ partitions: [0], requireActive: true });
      // An instance that is not in the metadata, and an address that is none.
      await expect(
        q.service.lookup('stats-store', 'a', { copyAt: '127.0.0.1:8009' }),
      ).rejects.toBeInstanceOf(StateStoreMigratedError);
      await expect(
        q.service.lookup('stats-store', 'a', { copyAt: 'nowhere' }),
      ).rejects.toMatchObject({ code: 'BAD_QUERY_ENDPOINT', retriable: false });
    });

    it('falls back to a standby copy when the owner is unreachable and stale reads are allowed', async () => {
      q.local.owns(C, [A], 0);
      q.unreachable.add(queryEndpointOf(C));
      await expect(q.service.get('stats-store', 'a', { allowStaleReads: true })).resolves.toBe(1);
      expect(q.local.queries).toEqual([
        expect.objectContaining({ partitions: [0], requireActive: false }),
      ]);

      q.local.owns(C, [B], 2);
      await expect(q.service.get('stats-store', 'b', { allowStaleReads: true })).resolves.toBe(2);
      expect(q.sent.at(-1)?.target).toBe(queryEndpointOf(B));
    });
  });
});

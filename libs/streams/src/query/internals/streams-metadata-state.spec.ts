import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UnknownStateStoreError } from '../../errors/unknown-state-store.error';
import { Consumed } from '../../kstream/consumed';
import { Materialized } from '../../kstream/materialized';
import { StreamsBuilder } from '../../kstream/streams-builder';
import { Serdes } from '../../serde/serdes';
import { Stores } from '../../state/stores';
import type { AssignmentInfo, HostAssignment } from '../../cluster/internals/assignment-info';
import { HostInfo } from '../../cluster/host-info';
import { KeyQueryMetadata } from '../key-query-metadata';
import { StreamsMetadataState } from './streams-metadata-state';

/** Keys with the partition Kafka's own Java client computes (test/fixtures, 6 partitions). */
const JAVA_PARTITIONS = (
  JSON.parse(
    readFileSync(join(__dirname, '../../../../../test/fixtures/murmur2-partitions.json'), 'utf8'),
  ) as { cases: { key: string; partitions: Record<string, number> }[] }
).cases
  .filter((c) => c.key.length > 0 && !/[\uD800-\uDFFF]/.test(c.key))
  .slice(0, 40)
  .map((c) => ({ key: c.key, partition: c.partitions['6'] }));

const strings = Consumed.with(Serdes.String(), Serdes.String());
const inMemory = (store: string) =>
  Materialized.as<string, string>(Stores.inMemoryKeyValueStore(store));

/** Two sub-topologies: 0 reads `users` into `users-store`; 1 reads `orders` into `orders-store`. */
function topology() {
  const builder = new StreamsBuilder();
  builder.table('users', strings, inMemory('users-store'));
  builder.table('orders', strings, inMemory('orders-store'));
  return builder.build();
}

const host = (
  endpoint: string | undefined,
  active: string[],
  standby: string[] = [],
): HostAssignment => ({ processId: `p-${endpoint}`, endpoint, active, standby });

const assignment = (hosts: HostAssignment[]): AssignmentInfo => ({
  version: 1,
  processId: 'p-a',
  active: [],
  standby: [],
  warmup: [],
  hosts,
});

describe('StreamsMetadataState', () => {
  const partitions = new Map([
    ['users', 6],
    ['orders', 3],
  ]);
  let state: StreamsMetadataState;
  beforeEach(() => {
    state = new StreamsMetadataState(
      topology(),
      (sub) => sub.sourceTopics,
      (topic) => partitions.get(topic),
    );
  });

  const everyUserTaskOn = (endpoint: string) =>
    host(endpoint, ['0_0', '0_1', '0_2', '0_3', '0_4', '0_5']);

  it('places a key on the partition Java producers pick, and names its active and standby hosts', () => {
    state.update(
      assignment([
        host('a:1', ['0_0', '0_1', '0_2', '1_0'], ['0_3', '0_4', '0_5']),
        host('b:1', ['0_3', '0_4', '0_5', '1_1', '1_2'], ['0_0', '0_1', '0_2']),
      ]),
    );
    for (const { key, partition } of JAVA_PARTITIONS) {
      const meta = state.keyQueryMetadata('users-store', key, Serdes.String());
      expect({ key, partition: meta.partition }).toEqual({ key, partition });
      expect(meta.activeHost.toString()).toBe(partition < 3 ? 'a:1' : 'b:1');
      expect(meta.standbyHosts.map(String)).toEqual([partition < 3 ? 'b:1' : 'a:1']);
    }
    expect(JAVA_PARTITIONS.length).toBeGreaterThanOrEqual(20);
  });

  it("counts partitions of the store's own sub-topology", () => {
    state.update(assignment([host('a:1', ['1_0', '1_1', '1_2'])]));
    const meta = state.keyQueryMetadata('orders-store', 'k', (_key, count) => count - 1);
    expect(meta.partition).toBe(2);
    expect(meta.activeHost.toString()).toBe('a:1');
  });

  it('answers NOT_AVAILABLE without an assignment, without partitions, or without an active owner', () => {
    const serializer = Serdes.String();
    expect(state.keyQueryMetadata('users-store', 'k', serializer)).toBe(
      KeyQueryMetadata.NOT_AVAILABLE,
    );
    state.update(assignment([host('a:1', ['0_0'], ['0_1'])]));
    // Partition 1's task runs only as a standby: no confirmed owner.
    expect(state.keyQueryMetadata('users-store', 'k', () => 1)).toBe(
      KeyQueryMetadata.NOT_AVAILABLE,
    );
    expect(state.keyQueryMetadata('users-store', 'k', () => 0).activeHost.toString()).toBe('a:1');
    partitions.delete('users');
    expect(state.keyQueryMetadata('users-store', 'k', () => 0)).toBe(
      KeyQueryMetadata.NOT_AVAILABLE,
    );
    partitions.set('users', 6);
    state.clear();
    expect(state.keyQueryMetadata('users-store', 'k', () => 0)).toBe(
      KeyQueryMetadata.NOT_AVAILABLE,
    );
  });

  it('throws UnknownStateStoreError for a store the topology lacks', () => {
    state.update(assignment([everyUserTaskOn('a:1')]));
    expect(() => state.keyQueryMetadata('nope', 'k', () => 0)).toThrow(UnknownStateStoreError);
    expect(() => state.forStore('nope')).toThrow(UnknownStateStoreError);
  });

  it("describes each instance's stores and partitions, leaving out members without an endpoint", () => {
    state.update(
      assignment([
        host('a:1', ['0_0', '1_2'], ['0_1']),
        host(undefined, ['0_1']),
        host('b:1', ['0_1'], ['0_0']),
      ]),
    );
    const [a, b] = state.all();
    expect(state.all()).toHaveLength(2);
    expect(a).toMatchObject({
      stateStoreNames: ['orders-store', 'users-store'],
      standbyStateStoreNames: ['users-store'],
      topicPartitions: [
        { topic: 'users', partition: 0 },
        { topic: 'orders', partition: 2 },
      ],
      standbyTopicPartitions: [{ topic: 'users', partition: 1 }],
      activeTasks: ['0_0', '1_2'],
    });
    expect(a.hostInfo.toString()).toBe('a:1');
    expect(b.stateStoreNames).toEqual(['users-store']);
    expect(state.forStore('orders-store').map((m) => m.hostInfo.toString())).toEqual(['a:1']);
    expect(state.forStore('users-store').map((m) => m.hostInfo.toString())).toEqual(['a:1', 'b:1']);
  });

  describe('with a global store', () => {
    /** Sub-topology 0 reads `users` into `users-store`; `regions-global` is a global table. */
    function withGlobal() {
      const builder = new StreamsBuilder();
      builder.table('users', strings, inMemory('users-store'));
      builder.globalTable('regions', strings, inMemory('regions-global'));
      return builder.build();
    }
    const stateAt = (self: string | undefined) =>
      new StreamsMetadataState(
        withGlobal(),
        (sub) => sub.sourceTopics,
        (topic) => partitions.get(topic),
        () => (self === undefined ? undefined : HostInfo.parse(self)),
      );
    const twoHosts = assignment([host('b:1', ['0_3', '0_4', '0_5']), host('a:1', ['0_0'])]);

    it("places every key of it on this instance, with no standby and no partition (Java's answer)", () => {
      for (const self of ['a:1', 'b:1']) {
        const state = stateAt(self);
        state.update(twoHosts);
        for (const key of ['k', 'user-1', '']) {
          const meta = state.keyQueryMetadata('regions-global', key, Serdes.String());
          expect(meta.toJSON()).toEqual({ activeHost: self, standbyHosts: [], partition: -1 });
          expect(meta.available).toBe(true);
        }
      }
    });

    it('answers NOT_AVAILABLE before an assignment, and the first instance without an endpoint here', () => {
      const state = stateAt(undefined);
      expect(state.keyQueryMetadata('regions-global', 'k', Serdes.String())).toBe(
        KeyQueryMetadata.NOT_AVAILABLE,
      );
      expect(KeyQueryMetadata.NOT_AVAILABLE.available).toBe(false);
      state.update(twoHosts);
      expect(state.keyQueryMetadata('regions-global', 'k', Serdes.String()).toJSON()).toEqual({
        activeHost: 'b:1',
        standbyHosts: [],
        partition: -1,
      });
    });

    it('lists it among the active stores of every instance, and every instance for it', () => {
      const state = stateAt('a:1');
      state.update(
        assignment([host('a:1', ['0_0']), host('b:1', [], ['0_0']), host('c:1', ['0_1'])]),
      );
      expect(state.all().map((m) => [m.hostInfo.toString(), m.stateStoreNames])).toEqual([
        ['a:1', ['regions-global', 'users-store']],
        ['b:1', ['regions-global']],
        ['c:1', ['regions-global', 'users-store']],
      ]);
      expect(state.forStore('regions-global').map((m) => m.hostInfo.toString())).toEqual([
        'a:1',
        'b:1',
        'c:1',
      ]);
      expect(state.isGlobal('regions-global')).toBe(true);
      expect(state.isGlobal('users-store')).toBe(false);
      expect(() => state.subtopologyOf('regions-global')).toThrow(UnknownStateStoreError);
    });
  });
});

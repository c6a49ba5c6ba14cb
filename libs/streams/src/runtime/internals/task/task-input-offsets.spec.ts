import type { ConsumedRecord } from '../../../client/consumed-record';
import { TaskInputOffsets } from './task-input-offsets';

const record = (topic: string, partition: number, offset: number): ConsumedRecord => ({
  topic,
  partition,
  offset,
  timestamp: 0,
  key: null,
  value: null,
  headers: {},
});

describe('TaskInputOffsets', () => {
  it('commits the next offset per partition and keeps the position across commits', () => {
    const offsets = new TaskInputOffsets();
    expect(offsets.uncommitted).toBe(false);
    offsets.markConsumed(record('orders', 0, 5));
    offsets.markConsumed(record('orders', 0, 6));
    offsets.markConsumed(record('orders', 1, 2));
    expect(offsets.uncommitted).toBe(true);
    expect(offsets.toCommit()).toEqual([
      { topic: 'orders', partition: 0, offset: 7 },
      { topic: 'orders', partition: 1, offset: 3 },
    ]);
    offsets.committed();
    expect(offsets.uncommitted).toBe(false);
    expect(offsets.toCommit()).toEqual([]);
    // A refetch from an older committed offset: what was processed is skipped.
    expect(offsets.alreadyProcessed(record('orders', 0, 6))).toBe(true);
    expect(offsets.alreadyProcessed(record('orders', 0, 7))).toBe(false);
    expect(offsets.alreadyProcessed(record('orders', 2, 0))).toBe(false);
    expect(offsets.positionList()).toEqual([
      { topic: 'orders', partition: 0, offset: 7 },
      { topic: 'orders', partition: 1, offset: 3 },
    ]);
  });

  it('is seeded forward from committed offsets, never backward, ignoring none committed', () => {
    const offsets = new TaskInputOffsets();
    offsets.markConsumed(record('orders', 0, 9));
    offsets.seed([
      { topic: 'orders', partition: 0, offset: 4 },
      { topic: 'orders', partition: 1, offset: 12 },
      { topic: 'orders', partition: 2, offset: -1 },
    ]);
    expect(offsets.positionList()).toEqual([
      { topic: 'orders', partition: 0, offset: 10 },
      { topic: 'orders', partition: 1, offset: 12 },
    ]);
    expect(offsets.alreadyProcessed(record('orders', 1, 11))).toBe(true);
    // Seeding is not consuming: nothing new to commit for partition 1.
    expect(offsets.toCommit()).toEqual([{ topic: 'orders', partition: 0, offset: 10 }]);
    // An out-of-order mark never moves a position back.
    offsets.markConsumed(record('orders', 0, 3));
    expect(offsets.positionList()[0]).toEqual({ topic: 'orders', partition: 0, offset: 10 });
    expect(offsets.toCommit()).toEqual([{ topic: 'orders', partition: 0, offset: 10 }]);
  });

  it('moves past the markers after a fully consumed fetch, and commits past them too', () => {
    const offsets = new TaskInputOffsets();
    offsets.markConsumed(record('orders', 0, 5));
    offsets.markConsumed(record('orders', 0, 6));
    // Offsets 7 and 8 are transaction markers: the fetch's last offset is 8.
    offsets.skipTo('orders', 0, 6, 9);
    expect(offsets.toCommit()).toEqual([{ topic: 'orders', partition: 0, offset: 9 }]);
    expect(offsets.positionList()).toEqual([{ topic: 'orders', partition: 0, offset: 9 }]);
  });

  it('does not move past a record it has not consumed', () => {
    const offsets = new TaskInputOffsets();
    offsets.markConsumed(record('orders', 0, 5));
    offsets.skipTo('orders', 0, 6, 9); // record 6 was not consumed
    offsets.skipTo('orders', 1, 3, 5); // nothing of partition 1 was consumed
    expect(offsets.toCommit()).toEqual([{ topic: 'orders', partition: 0, offset: 6 }]);
    expect(offsets.positionList()).toEqual([{ topic: 'orders', partition: 0, offset: 6 }]);
  });
});

import type { ConsumedRecord } from '../../../client/consumed-record';
import { inputRecords } from '../../../../test-support/two-input-task';
import { VirtualClock } from '../../../../test-support/virtual-clock';
import { PartitionGroup, type PartitionLag } from './partition-group';

const LEFT = { topic: 'left', partition: 0 };
const RIGHT = { topic: 'right', partition: 0 };

/**
 * Adds to `g` a batch of `topic`'s partition 0 from offset `from`, one record per timestamp
 * (valued `topic@offset`), ending at `nextOffset` (past its last record unless given).
 */
function add(
  g: PartitionGroup,
  topic: string,
  from: number,
  stamps: number[],
  nextOffset?: number,
) {
  g.add(topic, 0, inputRecords(topic, from, stamps), nextOffset ?? from + stamps.length);
}

const names = (taken: readonly ConsumedRecord[]) => taken.map((r) => String(r.value));

/** Lags by topic; a topic missing is unknown. */
const lags =
  (byTopic: Record<string, number>): PartitionLag =>
  (topic) =>
    byTopic[topic];

function group(maxTaskIdleMs: number, partitions = [LEFT, RIGHT]) {
  const metrics = { enforcedProcessing: 0 };
  return { group: new PartitionGroup(partitions, maxTaskIdleMs, metrics), metrics };
}

describe('PartitionGroup: the order a task processes its input in', () => {
  it('takes the record with the lowest timestamp at the head of a queue, each partition in offset order', () => {
    const { group: g } = group(0);
    add(g, 'left', 0, [10, 30, 20]);
    add(g, 'right', 0, [15, 25]);
    const taken = g.take(0, 100, lags({ left: 0, right: 0 }));
    // left@2 (20) waits behind left@1 (30): a partition is never reordered.
    expect(names(taken)).toEqual(['left@0', 'right@0', 'right@1', 'left@1', 'left@2']);
  });

  it('takes at most the slice size, and goes on where it stopped', () => {
    const { group: g } = group(0);
    add(g, 'left', 0, [1, 3]);
    add(g, 'right', 0, [2, 4]);
    const lag = lags({ left: 0, right: 0 });
    expect(names(g.take(0, 3, lag))).toEqual(['left@0', 'right@0', 'left@1']);
    expect(g.size).toBe(1);
    expect(names(g.take(0, 3, lag))).toEqual(['right@1']);
    expect(g.size).toBe(0);
  });

  it('processes a task with one input partition as its records come, whatever the lag', () => {
    const { group: g, metrics } = group(5_000, [LEFT]);
    add(g, 'left', 0, [9, 1]);
    expect(names(g.take(0, 100, () => undefined))).toEqual(['left@0', 'left@1']);
    expect(metrics.enforcedProcessing).toBe(0);
  });
});

describe('PartitionGroup: max.task.idle.ms (KIP-353, KIP-695)', () => {
  it('0: waits for an empty partition while its lag is unknown or above 0, not once it is 0', () => {
    const { group: g, metrics } = group(0);
    add(g, 'left', 0, [10, 20]);
    expect(g.take(0, 100, lags({ left: 0 }))).toEqual([]); // right not fetched yet
    expect(g.take(0, 100, lags({ left: 0, right: 3 }))).toEqual([]); // its records not here yet
    expect(g.idleDeadline()).toBeUndefined();
    const taken = g.take(0, 100, lags({ left: 0, right: 0 }));
    expect(names(taken)).toEqual(['left@0', 'left@1']);
    expect(metrics.enforcedProcessing).toBe(2);
  });

  it('keeps timestamp order while it waits, and processes alone once the idle time passed', () => {
    const clock = new VirtualClock();
    const { group: g, metrics } = group(500);
    const lag = lags({ left: 0, right: 0 });
    add(g, 'left', 0, [10, 30]);
    expect(g.take(clock.ms, 100, lag)).toEqual([]);
    expect(g.idleDeadline()).toBe(500);
    clock.ms = 499;
    expect(g.take(clock.ms, 100, lag)).toEqual([]);
    // right's record comes within the idle time: both in timestamp order, none enforced.
    add(g, 'right', 0, [20]);
    expect(names(g.take(clock.ms, 100, lag))).toEqual(['left@0', 'right@0']);
    expect(metrics.enforcedProcessing).toBe(0);
    // right is empty again: left@1 waits a new idle time from now.
    expect(g.idleDeadline()).toBe(999);
    clock.ms = 998;
    expect(g.take(clock.ms, 100, lag)).toEqual([]);
    clock.ms = 999;
    expect(names(g.take(clock.ms, 100, lag))).toEqual(['left@1']);
    expect(metrics.enforcedProcessing).toBe(1);
  });

  it('starts the idle time again each time the empty partition drains', () => {
    const clock = new VirtualClock();
    const { group: g, metrics } = group(100);
    const lag = lags({ left: 0, right: 0 });
    add(g, 'left', 0, [10]);
    expect(g.take(clock.ms, 10, lag)).toEqual([]);
    clock.ms = 50;
    add(g, 'right', 0, [5]);
    // right@0 first (5 < 10); right is empty again: left@0 waits until 50 + 100.
    expect(names(g.take(clock.ms, 10, lag))).toEqual(['right@0']);
    clock.ms = 120; // past the first deadline (100), within the new one (150)
    expect(g.take(clock.ms, 10, lag)).toEqual([]);
    expect(g.idleDeadline()).toBe(150);
    clock.ms = 150;
    expect(names(g.take(clock.ms, 10, lag))).toEqual(['left@0']);
    expect(metrics.enforcedProcessing).toBe(1);
  });

  it('waits however long for records the broker holds (lag above 0)', () => {
    const { group: g, metrics } = group(100);
    add(g, 'left', 0, [10]);
    expect(g.take(1_000_000, 10, lags({ left: 0, right: 1 }))).toEqual([]);
    expect(g.idleDeadline()).toBeUndefined();
    expect(metrics.enforcedProcessing).toBe(0);
  });

  it('-1: never waits, whatever the lags', () => {
    const { group: g, metrics } = group(-1);
    add(g, 'left', 0, [10, 20]);
    expect(names(g.take(0, 100, () => undefined))).toEqual(['left@0', 'left@1']);
    expect(metrics.enforcedProcessing).toBe(0);
  });

  it('stops in the middle of a slice when a partition drains and the other must be waited for', () => {
    const { group: g } = group(0);
    add(g, 'left', 0, [1, 3, 5]);
    add(g, 'right', 0, [2]);
    // right drained after right@0; the broker holds more of it.
    expect(names(g.take(0, 100, lags({ left: 0, right: 4 })))).toEqual(['left@0', 'right@0']);
    expect(g.sizeOf('left', 0)).toBe(2);
  });
});

describe('PartitionGroup: positions and clearing', () => {
  it('reports a batch end once its partition drained, once', () => {
    const { group: g } = group(-1);
    add(g, 'left', 4, [1, 2], 8);
    add(g, 'right', 0, [3]);
    g.take(0, 2, () => 0);
    expect(g.drainedPositions()).toEqual([
      { topic: 'left', partition: 0, lastRecordOffset: 5, nextOffset: 8 },
    ]);
    expect(g.drainedPositions()).toEqual([]);
    g.take(0, 2, () => 0);
    expect(g.drainedPositions()).toEqual([
      { topic: 'right', partition: 0, lastRecordOffset: 0, nextOffset: 1 },
    ]);
  });

  it('drops what it holds on clear, and refuses a partition not of its task', () => {
    const { group: g } = group(0);
    add(g, 'left', 0, [1]);
    g.clear();
    expect(g.size).toBe(0);
    expect(g.take(0, 10, () => 0)).toEqual([]);
    expect(g.drainedPositions()).toEqual([]);
    expect(() => add(g, 'other', 0, [1])).toThrow('other-0 is not an input partition of this task');
  });
});

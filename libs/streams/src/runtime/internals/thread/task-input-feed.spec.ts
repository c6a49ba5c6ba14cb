import type { TopicPartitions } from '../../../client/group-consumer';
import {
  fetchedBatch as batch,
  inputRecords,
  TWO_INPUTS,
  twoInputTask,
} from '../../../../test-support/two-input-task';
import type { ActiveTaskEntry } from '../active-tasks/active-task-entry';
import { MAX_BUFFERED_PER_PARTITION, TaskInputFeed } from './task-input-feed';

const flat = (partitions: TopicPartitions[]) =>
  partitions.flatMap((p) => p.partitions.map((n) => `${p.topic}-${n}`));

/**
 * A feed over a two-input task (`max.task.idle.ms` as given), Jest's clock (fake timers: its
 * `Date.now` and the feed's wake-up timer move together) and a consumer double whose lags the
 * test sets (a topic missing: unknown); the thread's queue runs work at once, `drained`
 * resolving when what it queued is done.
 */
async function feedOfTwoInputs(maxTaskIdleMs: number) {
  const { task, seen, close } = await twoInputTask(maxTaskIdleMs);
  const lags: Record<string, number> = {};
  const flow: string[] = [];
  const queued: Promise<void>[] = [];
  let open = true;
  const entry = { task, partitions: TWO_INPUTS } as unknown as ActiveTaskEntry;
  const feed = new TaskInputFeed({
    consumer: () => ({
      pause: (partitions) => void flow.push(`pause ${flat([...partitions])}`),
      resume: (partitions) => void flow.push(`resume ${flat([...partitions])}`),
      currentLag: (topic) => lags[topic],
    }),
    now: () => Date.now(),
    queue: (work) => void queued.push(work()),
    current: () => open,
    afterSlice: async () => undefined,
  });
  return {
    feed,
    entry,
    task,
    seen,
    lags,
    flow,
    drained: () => Promise.all(queued.splice(0)),
    closeTask: () => void (open = false),
    close: async () => {
      feed.stop();
      await close();
    },
  };
}

/**
 * At time 0 (fake timers), a feed idling up to 500 ms whose inputs both have nothing more on
 * the broker, with left@0 (10) and left@1 (30) delivered and right empty.
 */
async function leftDeliveredAlone() {
  jest.useFakeTimers({ now: 0 });
  const f = await feedOfTwoInputs(500);
  Object.assign(f.lags, { left: 0, right: 0 });
  await f.feed.deliver(f.entry, batch(inputRecords('left', 0, [10, 30])));
  return f;
}

describe('TaskInputFeed: a task with two input partitions (max.task.idle.ms)', () => {
  afterEach(() => jest.useRealTimers());

  it('0: waits for the records the broker holds of its empty input, and keeps timestamp order', async () => {
    const f = await feedOfTwoInputs(0);
    f.lags.left = 0; // right: not fetched yet
    await f.feed.deliver(f.entry, batch(inputRecords('left', 0, [10, 30])));
    expect(f.seen).toEqual([]);
    f.lags.right = 2; // fetched: two records on the broker, not handed over yet
    f.feed.fetched();
    await f.drained();
    expect(f.seen).toEqual([]);
    f.lags.right = 0;
    await f.feed.deliver(f.entry, batch(inputRecords('right', 0, [20, 40])));
    expect(f.seen).toEqual(['left@0', 'right@0', 'left@1', 'right@1']);
    // right@1 came after left drained, left known to be caught up: processed without waiting.
    expect(f.task.metrics.enforcedProcessing).toBe(1);
    expect(f.task.offsetsToCommit()).toEqual([
      { topic: 'left', partition: 0, offset: 2 },
      { topic: 'right', partition: 0, offset: 2 },
    ]);
    await f.close();
  });

  it('waits max.task.idle.ms for an input with nothing on the broker, then processes alone', async () => {
    const f = await leftDeliveredAlone();
    jest.advanceTimersByTime(499);
    await f.drained();
    expect(f.seen).toEqual([]);
    jest.advanceTimersByTime(1);
    await f.drained();
    expect(f.seen).toEqual(['left@0', 'left@1']);
    expect(f.task.metrics.enforcedProcessing).toBe(2);
    await f.close();
  });

  it('processes in timestamp order when the other input comes within the idle time', async () => {
    const f = await leftDeliveredAlone();
    jest.advanceTimersByTime(200);
    await f.feed.deliver(f.entry, batch(inputRecords('right', 0, [20])));
    // left@1 waits again: right is empty from 200 on, until 700.
    expect(f.seen).toEqual(['left@0', 'right@0']);
    jest.advanceTimersByTime(499);
    await f.drained();
    expect(f.seen).toEqual(['left@0', 'right@0']);
    jest.advanceTimersByTime(1);
    await f.drained();
    expect(f.seen).toEqual(['left@0', 'right@0', 'left@1']);
    expect(f.task.metrics.enforcedProcessing).toBe(1);
    await f.close();
  });

  it('-1: processes whatever was fetched at once', async () => {
    const f = await feedOfTwoInputs(-1);
    await f.feed.deliver(f.entry, batch(inputRecords('left', 0, [10, 30])));
    expect(f.seen).toEqual(['left@0', 'left@1']);
    await f.close();
  });

  it('pauses an input whose task holds a full buffer, and resumes it once processed', async () => {
    const f = await feedOfTwoInputs(0);
    f.lags.left = 0;
    const many = Array.from({ length: MAX_BUFFERED_PER_PARTITION }, (_, i) => 100 + i);
    await f.feed.deliver(f.entry, batch(inputRecords('left', 0, many)));
    expect(f.flow).toEqual(['pause left-0']);
    f.lags.right = 0;
    await f.feed.deliver(f.entry, batch(inputRecords('right', 0, [5_000])));
    expect(f.seen).toHaveLength(MAX_BUFFERED_PER_PARTITION + 1);
    expect(f.seen[MAX_BUFFERED_PER_PARTITION]).toBe('right@0');
    expect(f.flow).toEqual(['pause left-0', 'resume left-0']);
    await f.close();
  });

  it('forgets a task the thread closed, resuming the input it held', async () => {
    const f = await feedOfTwoInputs(0);
    const many = Array.from({ length: MAX_BUFFERED_PER_PARTITION }, (_, i) => i);
    await f.feed.deliver(f.entry, batch(inputRecords('left', 0, many)));
    f.closeTask();
    f.feed.fetched();
    await f.drained();
    expect(f.flow).toEqual(['pause left-0', 'resume left-0']);
    f.feed.fetched(); // nothing waits any more
    expect(await f.drained()).toEqual([]);
    await f.close();
  });
});

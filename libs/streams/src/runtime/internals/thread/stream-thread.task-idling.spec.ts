import type { ConsumedRecord } from '../../../client/consumed-record';
import type { GroupConsumerStart } from '../../../client/group-consumer';
import {
  fetchedBatch,
  inputRecords,
  TWO_INPUTS,
  twoInputTask,
} from '../../../../test-support/two-input-task';
import {
  assignmentOfTasks,
  groupConsumerDouble,
  streamThreadOptions,
  threadCallbacks,
} from '../../../../test-support/stream-thread-doubles';
import { StreamThread } from './stream-thread';

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

/**
 * A stream thread whose one task, 0_0, reads `left` and `right` (a real task, `max.task.idle.ms`
 * as given), over a group consumer double that hands the test its batch handler and tells the
 * lags the test sets (a topic missing: unknown).
 */
async function threadOfTwoInputs(maxTaskIdleMs: number) {
  const { task, seen, close } = await twoInputTask(maxTaskIdleMs);
  const lags: Record<string, number> = {};
  let start!: GroupConsumerStart;
  const consumer = groupConsumerDouble({
    start: async (s: GroupConsumerStart) => void (start = s),
    currentLag: (topic) => lags[topic],
  });
  const entry = {
    task,
    partitions: TWO_INPUTS,
    restored: true,
    engines: { overUncommittedLimit: () => false, overWriteBehindLimit: () => false },
  };
  let open = false;
  const tasks = {
    start: async () => undefined,
    commit: async () => 0,
    closeAll: async () => undefined,
    close: async () => void (open = false),
    tasks: () => (open ? [entry] : []),
    taskIds: () => (open ? ['0_0'] : []),
    get: (id: string) => (open && id === '0_0' ? entry : undefined),
    create: async () => void (open = true),
    cancelCreations: async () => undefined,
    creationOf: () => undefined,
    suspendQueries: () => undefined,
  };
  const streamThread = new StreamThread(
    streamThreadOptions({
      consumer,
      tasks,
      listener: threadCallbacks(jest.fn),
      protocol: 'eager',
    }),
  );
  await streamThread.start();
  await start.listener.onAssigned(assignmentOfTasks(['0_0']));
  await settle();
  const deliver = (records: ConsumedRecord[]) => start.handleBatch(fetchedBatch(records));
  return {
    seen,
    lags,
    task,
    deliver,
    fetched: () => start.listener.onFetch(),
    stop: async () => {
      await streamThread.stop();
      await close();
    },
  };
}

describe('StreamThread: a task with two input partitions (max.task.idle.ms)', () => {
  it('processes its inputs in timestamp order: a batch of one waits for the records the broker holds of the other', async () => {
    const t = await threadOfTwoInputs(0);
    t.lags.left = 0;
    t.lags.right = 2;
    // Consumed (the fetch goes on), held by the task until right's records come.
    await expect(t.deliver(inputRecords('left', 0, [10, 30]))).resolves.toBe(true);
    expect(t.seen).toEqual([]);
    t.lags.right = 0;
    await expect(t.deliver(inputRecords('right', 0, [20, 40]))).resolves.toBe(true);
    expect(t.seen).toEqual(['left@0', 'right@0', 'left@1', 'right@1']);
    await t.stop();
  });

  it('goes on when a fetch shows the empty input caught up (0: no wait for records not produced)', async () => {
    const t = await threadOfTwoInputs(0);
    t.lags.left = 0;
    await t.deliver(inputRecords('left', 0, [10, 30]));
    expect(t.seen).toEqual([]);
    t.lags.right = 0; // a fetch found right empty on the broker
    t.fetched();
    await settle();
    expect(t.seen).toEqual(['left@0', 'left@1']);
    expect(t.task.metrics.enforcedProcessing).toBe(2);
    await t.stop();
  });

  it('-1: processes each batch as it comes', async () => {
    const t = await threadOfTwoInputs(-1);
    await t.deliver(inputRecords('left', 0, [10, 30]));
    await t.deliver(inputRecords('right', 0, [20, 40]));
    expect(t.seen).toEqual(['left@0', 'left@1', 'right@0', 'right@1']);
    await t.stop();
  });
});

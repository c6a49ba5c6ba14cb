import type { GroupConsumerStart, TopicPartitions } from '../../../client/group-consumer';
import { StreamThread } from './stream-thread';
import {
  assignmentOfTasks,
  groupConsumerDouble,
  streamThreadOptions,
  threadCallbacks,
} from '../../../../test-support/stream-thread-doubles';
import { TaskCreations } from '../active-tasks/task-creations';

interface OpenTask {
  task: { id: { toString(): string }; commitNeeded(): boolean; punctuateWallClock(): void };
  partitions: { topic: string; partition: number }[];
  restored: boolean;
}

/**
 * A stream thread over a group consumer double and a task manager double whose creations
 * restore until the test finishes them (`finish`) or they are cancelled, as the manager's do
 * (the same TaskCreations; a cancelled one closes its task dirty).
 */
function restoringThread(protocol: 'eager' | 'cooperative') {
  let listener: GroupConsumerStart['listener'] | undefined;
  const flow: string[] = [];
  const describe = (partitions: readonly TopicPartitions[]) =>
    partitions.map((p) => `${p.topic}:${p.partitions.join(',')}`).join(' ');
  const consumer = groupConsumerDouble({
    start: async (start: GroupConsumerStart) => void (listener = start.listener),
    pause: (partitions: TopicPartitions[]) => void flow.push(`pause ${describe(partitions)}`),
    resume: (partitions: TopicPartitions[]) => void flow.push(`resume ${describe(partitions)}`),
  });
  const events: string[] = [];
  const open = new Map<string, OpenTask>();
  const restores = new Map<string, () => void>();
  const creations = new TaskCreations();
  const close = async (id: string, clean: boolean) => {
    if (open.delete(id)) events.push(`close ${id} ${clean ? 'clean' : 'dirty'}`);
  };
  const tasks = {
    start: async () => undefined,
    commit: async () => 0,
    closeAll: async (clean: boolean) => {
      for (const id of [...open.keys()]) await close(id, clean);
    },
    close,
    tasks: () => [...open.values()],
    taskIds: () => [...open.keys()],
    get: (id: string) => open.get(id),
    create: (id: string) =>
      creations.run(
        id,
        (signal) => {
          events.push(`restore ${id}`);
          const entry: OpenTask = {
            // The thread's wall-clock tick punctuates restored tasks (a slow run sees one).
            task: {
              id: { toString: () => id },
              commitNeeded: () => false,
              punctuateWallClock: () => undefined,
            },
            partitions: [{ topic: 'input', partition: Number(id.split('_')[1]) }],
            restored: false,
          };
          open.set(id, entry);
          return new Promise<OpenTask>((resolve, reject) => {
            restores.set(id, () => {
              entry.restored = true;
              resolve(entry);
            });
            signal.addEventListener('abort', () => reject(new Error('restore aborted')));
          });
        },
        () => close(id, false),
      ),
    cancelCreations: (keep: ReadonlySet<string> = new Set()) =>
      creations.cancel(creations.taskIds().filter((id) => !keep.has(id))),
    creationOf: (id: string) => creations.pending(id),
    suspendQueries: () => undefined,
  };
  const callbacks = threadCallbacks(jest.fn);
  const options = streamThreadOptions({
    consumer,
    tasks,
    listener: callbacks,
    protocol,
    standbys: {
      closeAll: async () => undefined,
      assign: async (ids: string[]) => void events.push(`standbys [${ids.join(',')}]`),
      release: async () => undefined,
    },
  });
  /** The member's assignment of tasks `ids` (sub-topology 0; partition = task partition). */
  const assign = (ids: string[]) => listener!.onAssigned(assignmentOfTasks(ids));
  const finish = (id: string) => restores.get(id)!();
  return { streamThread: new StreamThread(options), assign, finish, events, flow, open, callbacks };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
/** Whether `promise` settles within `ms` (a rebalance step that waits for a restore never does). */
const settlesWithin = (promise: Promise<unknown>, ms: number) =>
  Promise.race([
    promise.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
  ]);

describe('StreamThread, a cooperative assignment taking away a task still restoring', () => {
  it('closes it at once (its restore cancelled) instead of waiting for the restore', async () => {
    const t = restoringThread('cooperative');
    await t.streamThread.start();
    await t.assign(['0_0', '0_1']);
    await settle();
    expect(t.events).toEqual(['restore 0_0', 'restore 0_1']);

    // The next generation takes 0_1 away: the member gives it up now, 0_0 restores on.
    expect(await settlesWithin(t.assign(['0_0']), 1_000)).toBe(true);
    expect(t.events).toEqual(['restore 0_0', 'restore 0_1', 'close 0_1 dirty']);
    expect(t.callbacks.onRunning).not.toHaveBeenCalled();

    t.finish('0_0');
    await settle();
    // Only the latest assignment starts (its standbys, then its input, partition 0), once.
    expect(t.events.slice(3)).toEqual(['standbys []']);
    expect(t.flow).toEqual(['pause input:0,1', 'pause input:0', 'resume input:0']);
    expect(t.callbacks.onRunning).toHaveBeenCalledTimes(1);
    expect(t.callbacks.onError).not.toHaveBeenCalled();
    expect([...t.open.keys()]).toEqual(['0_0']);
    await t.streamThread.stop();
  });

  it('keeps a task it keeps restoring, and starts only once that restore ended too', async () => {
    const t = restoringThread('cooperative');
    await t.streamThread.start();
    await t.assign(['0_0']);
    await settle();
    await t.assign(['0_0', '0_1']);
    await settle();
    // 0_0 is not restored again: the later assignment waits for the earlier creation.
    expect(t.events).toEqual(['restore 0_0', 'restore 0_1']);

    t.finish('0_1');
    await settle();
    expect(t.callbacks.onRunning).not.toHaveBeenCalled();
    expect(t.flow).toEqual(['pause input:0', 'pause input:0,1']);

    t.finish('0_0');
    await settle();
    expect(t.flow).toEqual(['pause input:0', 'pause input:0,1', 'resume input:0,1']);
    expect(t.callbacks.onRunning).toHaveBeenCalledTimes(1);
    expect(t.callbacks.onError).not.toHaveBeenCalled();
    await t.streamThread.stop();
  });
});

describe.each(['eager', 'cooperative'] as const)(
  'StreamThread stopping during a restore (%s)',
  (protocol) => {
    it('cancels the restore, closes the task dirty and stops, never RUNNING', async () => {
      const t = restoringThread(protocol);
      await t.streamThread.start();
      void t.assign(['0_0', '0_1']);
      await settle();
      expect(t.events).toEqual(['restore 0_0', 'restore 0_1']);

      expect(await settlesWithin(t.streamThread.stop(), 1_000)).toBe(true);
      // No standbys were taken up either: the stop came first.
      expect(t.events.slice(2).sort()).toEqual(['close 0_0 dirty', 'close 0_1 dirty']);
      expect(t.open.size).toBe(0);
      expect(t.callbacks.onRunning).not.toHaveBeenCalled();
      expect(t.callbacks.onError).not.toHaveBeenCalled();
    });
  },
);

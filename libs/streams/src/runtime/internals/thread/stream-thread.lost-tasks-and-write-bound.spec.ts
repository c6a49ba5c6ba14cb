import type { GroupConsumerStart, GroupFetchedBatch } from '../../../client/group-consumer';
import { RebalanceInProgressError } from '../../../errors/internals/rebalance-in-progress.error';
import { StreamThread } from './stream-thread';
import { PartitionGroup } from '../task/partition-group';
import {
  assignmentOfTasks,
  groupConsumerDouble,
  streamThreadOptions,
  threadCallbacks,
} from '../../../../test-support/stream-thread-doubles';

/**
 * An eager stream thread over a group consumer double that hands the test its listener and
 * batch handler, and a task manager double whose entries `entryParts` completes.
 */
function eagerThread(entryParts: (id: string) => Record<string, unknown> = () => ({})) {
  let listener: GroupConsumerStart['listener'] | undefined;
  let handleBatch: GroupConsumerStart['handleBatch'] | undefined;
  const consumer = groupConsumerDouble({
    start: async (start: GroupConsumerStart) => {
      listener = start.listener;
      handleBatch = start.handleBatch;
    },
  });
  const created = new Set<string>();
  const suspended = new Set<string>();
  const entries = new Map<string, Record<string, unknown>>();
  const entry = (id: string) => {
    let made = entries.get(id);
    if (!made) {
      const parts = entryParts(id);
      const partitions = [{ topic: 'input', partition: Number(id.split('_')[1]) }];
      made = {
        ...parts,
        // punctuateWallClock: the thread's wall-clock tick reaches restored tasks (a slow run
        // sees one); input: where the thread puts a fetched batch.
        task: {
          id: { toString: () => id },
          commitNeeded: () => false,
          punctuateWallClock: () => undefined,
          input: new PartitionGroup(partitions, 0, { enforcedProcessing: 0 }),
          ...(parts.task as object),
        },
        partitions,
        restored: true,
      };
      entries.set(id, made);
    }
    return made;
  };
  const tasks = {
    start: async () => undefined,
    commit: async () => 0,
    closeAll: async () => undefined,
    close: async (id: string) => {
      created.delete(id);
      suspended.delete(id);
    },
    tasks: () => [...created].map(entry),
    taskIds: () => [...created],
    get: (id: string) => (created.has(id) ? entry(id) : undefined),
    create: async (id: string) => void created.add(id),
    cancelCreations: async () => undefined,
    creationOf: () => undefined,
    // As the manager: the latest assignment's lost tasks (that are open) replace the earlier.
    suspendQueries: (ids: string[]) => {
      suspended.clear();
      for (const id of ids) if (created.has(id)) suspended.add(id);
    },
  };
  const options = streamThreadOptions({
    consumer,
    tasks,
    listener: threadCallbacks(jest.fn),
    protocol: 'eager',
  });
  const assign = (ids: string[]) => listener!.onAssigned(assignmentOfTasks(ids));
  return {
    streamThread: new StreamThread(options),
    listener: () => listener!,
    handleBatch: () => handleBatch!,
    assign,
    created,
    suspended,
  };
}

describe('StreamThread queries during an eager rebalance', () => {
  it('reads no more a task the new assignment took away, from the assignment on', async () => {
    const t = eagerThread();
    await t.streamThread.start();
    await t.assign(['0_0', '0_1', '0_2']);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect([...t.created]).toEqual(['0_0', '0_1', '0_2']);
    expect([...t.suspended]).toEqual([]);

    await t.listener().onRevoking();
    // Revoked, not yet reassigned: nobody else owns the tasks yet; they answer on.
    expect([...t.suspended]).toEqual([]);
    const applied = t.assign(['0_1']);
    // The assignment is out: 0_0 and 0_2 may have their new owner already, though still open here.
    expect([...t.created]).toEqual(['0_0', '0_1', '0_2']);
    expect([...t.suspended]).toEqual(['0_0', '0_2']);
    await applied;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect([...t.created]).toEqual(['0_1']);
    expect([...t.suspended]).toEqual([]);
    await t.streamThread.stop();
  });
});

describe('StreamThread queries when an eager assignment gives a task back', () => {
  it('answers for it again once a later assignment holds it, before the first is applied', async () => {
    const t = eagerThread();
    await t.streamThread.start();
    await t.assign(['0_0', '0_1']);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await t.listener().onRevoking();
    const first = t.assign(['0_0']);
    expect([...t.suspended]).toEqual(['0_1']);
    // The next generation's assignment comes before the first one is applied (0_1 still open).
    const second = t.assign(['0_0', '0_1']);
    expect([...t.created]).toEqual(['0_0', '0_1']);
    expect([...t.suspended]).toEqual([]);
    await Promise.all([first, second]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The first assignment closed 0_1 in its turn, the second opened it again.
    expect([...t.created].sort()).toEqual(['0_0', '0_1']);
    expect([...t.suspended]).toEqual([]);
    await t.streamThread.stop();
  });
});

describe('StreamThread writes held behind RocksDB', () => {
  it('at-least-once: lets RocksDB catch up before the next slice once the writes held behind pass the bound', async () => {
    const ran: string[] = [];
    let behind = true;
    let caughtUp!: () => void;
    const t = eagerThread(() => ({
      task: {
        prepare: (records: unknown[]) => ({ records, loaded: Promise.resolve() }),
        run: (batch: { records: { offset: number }[] }) =>
          void ran.push(`run ${batch.records[0].offset}`),
        commitRequestedByProcessor: () => false,
        offsets: { skipTo: () => undefined },
      },
      engines: {
        overUncommittedLimit: () => false,
        overWriteBehindLimit: () => behind,
        writeHeld: () =>
          new Promise<void>((resolve) => {
            ran.push('wait for RocksDB');
            caughtUp = () => {
              behind = false;
              resolve();
            };
          }),
      },
    }));
    await t.streamThread.start();
    await t.assign(['0_0']);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const records = Array.from({ length: 1500 }, (_, offset) => ({ offset }));
    const consumed = t.handleBatch()({
      topic: 'input',
      partition: 0,
      records,
      nextOffset: 1500,
      isCurrent: () => true,
      heartbeat: async () => undefined,
    } as unknown as GroupFetchedBatch);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The first slice ran; the second waits until the engine wrote what it held behind.
    expect(ran).toEqual(['run 0', 'wait for RocksDB']);
    caughtUp();
    await expect(consumed).resolves.toBe(true);
    expect(ran).toEqual(['run 0', 'wait for RocksDB', 'run 1000']);
    await t.streamThread.stop();
  });

  it('heartbeats while a batch waits on its writes, so the session outlives a hung broker (#38)', async () => {
    let caughtUp!: () => void;
    const t = eagerThread(() => ({
      task: {
        prepare: (records: unknown[]) => ({ records, loaded: Promise.resolve() }),
        run: () => undefined,
        commitRequestedByProcessor: () => false,
        offsets: { skipTo: () => undefined },
      },
      engines: {
        overUncommittedLimit: () => false,
        overWriteBehindLimit: () => true,
        writeHeld: () => new Promise<void>((resolve) => (caughtUp = resolve)),
      },
    }));
    await t.streamThread.start();
    await t.assign(['0_0']);
    await new Promise((resolve) => setTimeout(resolve, 20));
    let heartbeats = 0;
    const consumed = t.handleBatch()({
      topic: 'input',
      partition: 0,
      records: [{ offset: 0 }],
      nextOffset: 1,
      isCurrent: () => true,
      heartbeat: async () => void heartbeats++,
    } as unknown as GroupFetchedBatch);
    // The heartbeat interval of the doubles is 1 s: one heartbeat while the writes are held.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(heartbeats).toBe(1);
    caughtUp();
    await expect(consumed).resolves.toBe(true);
    await t.streamThread.stop();
  });
});

describe('StreamThread: a rejoin asked while lost tasks close', () => {
  it('exactly-once: rejoins once the closing is done, though the closing itself asked for none', async () => {
    let listener: GroupConsumerStart['listener'] | undefined;
    const rejoin = jest.fn(async () => undefined);
    const consumer = groupConsumerDouble({
      start: async (start: GroupConsumerStart) => void (listener = start.listener),
      rejoin,
    });
    const created = new Set<string>();
    let releaseClose!: () => void;
    const closing = new Promise<void>((resolve) => (releaseClose = resolve));
    const tasks = {
      exactlyOnce: true,
      start: async () => undefined,
      commit: async () => 0,
      closeAll: async () => undefined,
      close: async (id: string) => {
        await closing;
        created.delete(id);
      },
      tasks: () => [],
      taskIds: () => [...created],
      get: () => undefined,
      create: async (id: string) => void created.add(id),
      cancelCreations: async () => undefined,
      creationOf: () => undefined,
      suspendQueries: () => undefined,
      resetThreadProducer: async () => undefined,
    };
    const listenerCallbacks = threadCallbacks(jest.fn);
    const streamThread = new StreamThread(
      streamThreadOptions({
        consumer,
        tasks,
        listener: listenerCallbacks,
        protocol: 'cooperative',
      }),
    );
    await streamThread.start();
    await listener!.onAssigned(assignmentOfTasks(['0_0']));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect([...created]).toEqual(['0_0']);

    // The membership is lost: the tasks close dirty, and the consumer is to rejoin by itself...
    const lost = listener!.onLost();
    // ...but its rejoin failed on a rebalance while the tasks were still closing.
    listener!.onFailed(new RebalanceInProgressError('app'));
    expect(rejoin).not.toHaveBeenCalled();
    releaseClose();
    await lost;
    await new Promise((resolve) => setTimeout(resolve, 20));

    expect([...created]).toEqual([]);
    expect(rejoin).toHaveBeenCalledTimes(1);
    expect(listenerCallbacks.onError).not.toHaveBeenCalled();
    await streamThread.stop();
  });
});

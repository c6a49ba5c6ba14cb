import { ActiveTaskManager, type ActiveTaskManagerOptions } from './active-task-manager';

/**
 * A manager sharing one transaction per thread (exactly-once with KIP-447) over open tasks,
 * restored or not, whose closes and transaction aborts it records.
 */
function threadTransactionManager(tasks: Record<string, { restored: boolean }>) {
  const events: string[] = [];
  const manager = new ActiveTaskManager({
    config: { processingGuarantee: 'exactly_once_v2' },
    logger: { info: () => undefined, warn: () => undefined },
  } as unknown as ActiveTaskManagerOptions);
  const internals = manager as unknown as {
    entries: Map<string, unknown>;
    producers: { threadProducer: unknown };
  };
  let open = true; // the thread's transaction, until aborted
  internals.producers.threadProducer = {
    abort: async () => {
      if (!open) return false;
      open = false;
      events.push('thread transaction aborted');
      return true;
    },
  };
  for (const [id, { restored }] of Object.entries(tasks)) {
    internals.entries.set(id, taskEntry(id, restored, events));
  }
  return { manager, events };
}

/** An open task's entry whose close it records in `events`. */
function taskEntry(id: string, restored: boolean, events: string[]) {
  return {
    task: {
      id: { toString: () => id },
      close: async (clean: boolean) =>
        void events.push(`${id} closed ${clean ? 'clean' : 'dirty'}`),
    },
    collector: { flush: async () => undefined },
    stateManager: { close: async () => undefined },
    partitions: [],
    restored,
  };
}

describe('ActiveTaskManager closing a task still restoring', () => {
  it('closes it dirty without aborting the thread transaction (it wrote nothing in it)', async () => {
    const { manager, events } = threadTransactionManager({
      '0_0': { restored: true },
      '0_1': { restored: false },
    });
    await manager.close('0_1', false);
    expect(events).toEqual(['0_1 closed dirty']);
    expect(manager.taskIds()).toEqual(['0_0']);
  });

  it('still aborts it, closing every task dirty, when a restored task closes dirty', async () => {
    const { manager, events } = threadTransactionManager({
      '0_0': { restored: true },
      '0_1': { restored: true },
    });
    await manager.close('0_0', false);
    expect(events).toEqual(['0_0 closed dirty', 'thread transaction aborted', '0_1 closed dirty']);
    expect(manager.taskIds()).toEqual([]);
  });
});

describe('ActiveTaskManager cancelling a creation that already ended', () => {
  it('closes the opened task clean, aborting nothing (its restore and opening were complete)', async () => {
    const { manager, events } = threadTransactionManager({ '0_0': { restored: true } });
    const internals = manager as unknown as {
      entries: Map<string, unknown>;
      open: (id: string) => Promise<unknown>;
    };
    // The creation opens the task completely; the cancellation comes before its caller resumes.
    internals.open = async (id: string) => {
      const entry = taskEntry(id, true, events);
      internals.entries.set(id, entry);
      return entry;
    };
    const creation = manager.create('0_1');
    const cancelled = manager.cancelCreations();
    await expect(creation).rejects.toMatchObject({ code: 'TASK_CREATION_CANCELLED' });
    await cancelled;
    expect(events).toEqual(['0_1 closed clean']);
    expect(manager.taskIds()).toEqual(['0_0']);
  });
});

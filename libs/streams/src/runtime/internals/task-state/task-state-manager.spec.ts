import { promises as fs } from 'node:fs';
import { InMemoryRecordCollector } from '../../../processor/internals/in-memory-record-collector';
import type { StoreRegistration } from '../../../processor/state-store-context';
import { TaskEngines, type TaskEngine } from '../../../state/internals/task-engines';
import { setCommitPhaseHook } from '../commit/commit-phases';
import type { StateLogger } from '../../../logging/logger';
import type { RestoreResult, RestoreTarget } from '../restore/restore-target';
import type { StateRestorer } from '../restore/state-restorer';
import { TaskStateManager } from './task-state-manager';
import {
  CHANGELOG,
  TASK,
  sendChangelogRecords,
  useTaskDirectory,
} from '../../../../test-support/task-state-test-support';

function registration(persistent = true, name = 's'): StoreRegistration & { wipes: number } {
  const reg = {
    wipes: 0,
    name,
    persistent,
    changelog: { topic: `app-${name}-changelog`, partition: 2 },
    store: {
      name,
      persistent,
      init: async () => {},
      flush: async () => {},
      close: async () => {},
      isOpen: () => true,
    },
    restoreBatch: () => {},
    wipe: async () => {
      reg.wipes++;
    },
  };
  return reg;
}

/** A restorer double: records the targets and reports everything restored up to `end`. */
function fakeRestorer(end: number): StateRestorer & { targets: RestoreTarget[] } {
  const fake = {
    targets: [] as RestoreTarget[],
    async restore(targets: readonly RestoreTarget[]): Promise<RestoreResult[]> {
      fake.targets.push(...targets);
      return targets.map((t) => ({
        storeName: t.storeName,
        topic: t.topic,
        partition: t.partition,
        startOffset: t.startOffset ?? 0,
        endOffset: end,
        restored: end - (t.startOffset ?? 0),
        lastOffset: end - 1,
        wiped: false,
      }));
    },
  };
  return fake as unknown as StateRestorer & { targets: RestoreTarget[] };
}

describe('TaskStateManager', () => {
  const dir = useTaskDirectory('task-state-');
  const { checkpointText, writeCheckpoint } = dir;
  const warnings: string[] = [];
  const logger: StateLogger = {
    error: () => {},
    info: () => {},
    debug: () => {},
    warn: (m) => warnings.push(m),
  };

  beforeEach(() => {
    warnings.length = 0;
  });

  const manager = (
    reg: StoreRegistration[],
    exactlyOnce = false,
    collector = new InMemoryRecordCollector(),
    engines?: TaskEngines,
  ) =>
    new TaskStateManager({
      taskId: TASK,
      stateDirectory: dir.stateDirectory,
      registrations: reg,
      recordCollector: collector,
      exactlyOnce,
      engines,
      logger,
    });
  /**
   * Engines that manage store `s`, with one engine recording its calls in `events`; its flush
   * is `flushEngine` when given.
   */
  const crashSafeEngines = (
    events: string[],
    flushEngine: () => Promise<void> = async () => void events.push('flush'),
  ): TaskEngines => {
    const engines = new TaskEngines();
    engines.declare('s');
    const engine: TaskEngine = {
      uncommittedBytes: 0,
      commitPending: async () => void events.push('commit'),
      discardPending: () => events.push('discard'),
      flushEngine,
      writeHeld: async () => undefined,
    };
    engines.enlist(engine);
    return engines;
  };

  it('restores from the beginning without a checkpoint and checkpoints the end', async () => {
    const m = manager([registration()]);
    await m.initialize();
    const restorer = fakeRestorer(50);
    await m.restore(restorer);
    expect(restorer.targets[0].startOffset).toBeUndefined();
    expect(await checkpointText()).toBe(`0\n1\n${CHANGELOG} 2 49\n`);
  });

  it('resumes from checkpoint + 1', async () => {
    await writeCheckpoint(41);
    const m = manager([registration()]);
    await m.initialize();
    expect(m.restoreTargets()[0].startOffset).toBe(42);
  });

  it('turns a corrupt checkpoint into a wipe and a full restore, with a warning', async () => {
    await fs.writeFile(dir.stateDirectory.checkpointFilePath(TASK), 'garbage');
    const reg = registration();
    const m = manager([reg]);
    await m.initialize();
    expect(reg.wipes).toBe(1);
    expect(m.restoreTargets()[0].startOffset).toBeUndefined();
    expect(warnings.join()).toMatch(/corrupt.*restoring every store from the beginning/);
  });

  it('never checkpoints in-memory stores and restores them from the beginning', async () => {
    await writeCheckpoint(41);
    const m = manager([registration(false)]);
    await m.initialize();
    expect(m.restoreTargets()[0].startOffset).toBeUndefined();
    await m.restore(fakeRestorer(50));
    expect(await checkpointText()).toBe('0\n0\n');
  });

  describe('exactly-once, stores holding committed state only (their engines in TaskEngines)', () => {
    afterEach(() => setCommitPhaseHook(undefined));

    /** A manager of store `s` over `engines`, initialized and restored up to `end`. */
    const restored = async (collector: InMemoryRecordCollector, engines: TaskEngines, end = 0) => {
      const m = manager([registration()], true, collector, engines);
      await m.initialize();
      await m.restore(fakeRestorer(end));
      return m;
    };
    /** `n` changelog records acknowledged in a transaction of `m`'s task that committed. */
    const commitRecords = (m: TaskStateManager, collector: InMemoryRecordCollector, n: number) => {
      sendChangelogRecords(collector, n);
      m.recordCommitted();
    };

    it('keeps the checkpoint at start, resumes after it, and checkpoints after the restore', async () => {
      await writeCheckpoint(41);
      const reg = registration();
      const events: string[] = [];
      const m = manager([reg], true, undefined, crashSafeEngines(events));
      await m.initialize();
      expect(await checkpointText()).toBe(`0\n1\n${CHANGELOG} 2 41\n`);
      expect(reg.wipes).toBe(0);
      expect(m.restoreTargets()[0].startOffset).toBe(42);
      setCommitPhaseHook((phase) => events.push(phase));
      await m.restore(fakeRestorer(50));
      expect(events).toEqual(['flush', 'stores-flushed', 'checkpoint-written']);
      expect(await checkpointText()).toBe(`0\n1\n${CHANGELOG} 2 49\n`);
    });

    it('still wipes a persistent store that has no checkpointed offset', async () => {
      const reg = registration();
      const m = manager([reg], true, undefined, crashSafeEngines([]));
      await m.initialize();
      expect(reg.wipes).toBe(1);
    });

    it('checkpoints the offsets of committed transactions only, past the threshold', async () => {
      const collector = new InMemoryRecordCollector();
      const events: string[] = [];
      const m = await restored(collector, crashSafeEngines(events));
      events.length = 0;
      sendChangelogRecords(collector, 10_002);
      // Acknowledged, but the transaction has not committed: nothing of it is checkpointed.
      expect(m.checkpointIfNeeded()).toBe(false);
      await m.close(true);
      expect(await checkpointText()).toBe('0\n0\n'); // the empty changelog's -1 is no offset
      m.recordCommitted();
      expect(m.checkpointIfNeeded()).toBe(true);
      await m.whenCheckpointed();
      expect(events).toEqual(['flush', 'flush']);
      expect(await checkpointText()).toBe(`0\n1\n${CHANGELOG} 2 10001\n`);
    });

    it('checkpoints in the background: the offsets taken at its start, one at a time', async () => {
      const collector = new InMemoryRecordCollector();
      let release = (): void => undefined;
      let hold = false;
      let flushes = 0;
      const engines = crashSafeEngines([], () => {
        flushes++;
        return hold ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
      });
      const m = await restored(collector, engines);
      hold = true;
      commitRecords(m, collector, 10_002);
      expect(m.checkpointIfNeeded()).toBe(true);
      expect(flushes).toBe(2);
      // Committed while the engines flush: not claimed by this checkpoint, and no second one.
      commitRecords(m, collector, 10_002);
      expect(m.checkpointIfNeeded()).toBe(false);
      expect(await checkpointText()).toBe('0\n0\n');
      release();
      await m.whenCheckpointed();
      expect(await checkpointText()).toBe(`0\n1\n${CHANGELOG} 2 10001\n`);
      expect(m.checkpointIfNeeded()).toBe(true);
      release();
      await m.whenCheckpointed();
      expect(await checkpointText()).toBe(`0\n1\n${CHANGELOG} 2 20003\n`);
    });

    it('keeps the last checkpoint and warns when a background checkpoint fails', async () => {
      const collector = new InMemoryRecordCollector();
      let diskFull = false;
      const engines = crashSafeEngines([], () =>
        diskFull ? Promise.reject(new Error('disk full')) : Promise.resolve(),
      );
      const m = await restored(collector, engines, 5);
      diskFull = true;
      commitRecords(m, collector, 10_010);
      expect(m.checkpointIfNeeded()).toBe(true);
      await m.whenCheckpointed();
      expect(await checkpointText()).toBe(`0\n1\n${CHANGELOG} 2 4\n`);
      expect(warnings.join()).toMatch(/checkpoint failed: Error: disk full/);
    });

    it('lets a clean close wait for the background checkpoint, then write its own', async () => {
      const collector = new InMemoryRecordCollector();
      const events: string[] = [];
      const m = await restored(collector, crashSafeEngines(events));
      commitRecords(m, collector, 10_002);
      expect(m.checkpointIfNeeded()).toBe(true);
      commitRecords(m, collector, 3);
      await m.close(true);
      expect(await checkpointText()).toBe(`0\n1\n${CHANGELOG} 2 10004\n`);
    });

    it('keeps the state and the last checkpoint on a dirty close', async () => {
      await writeCheckpoint(41);
      const m = manager([registration()], true, undefined, crashSafeEngines([]));
      await m.initialize();
      await m.close(false);
      expect(await checkpointText()).toBe(`0\n1\n${CHANGELOG} 2 41\n`);
      expect(await dir.stateDirectory.listTaskDirs()).toHaveLength(1);
    });

    it("falls back to the older rules when a store's engine is not managed", async () => {
      await writeCheckpoint(41);
      const engines = crashSafeEngines([]);
      const m = manager(
        [registration(true, 's'), registration(true, 'own')],
        true,
        undefined,
        engines,
      );
      await m.initialize();
      await expect(checkpointText()).rejects.toThrow(/ENOENT/);
      await m.close(false);
      expect(await dir.stateDirectory.listTaskDirs()).toEqual([]);
    });
  });

  describe('exactly-once, stores of suppliers of their own (older rules)', () => {
    it('deletes the checkpoint at start and keeps using its offsets', async () => {
      await writeCheckpoint(41);
      const reg = registration();
      const m = manager([reg], true);
      await m.initialize();
      await expect(checkpointText()).rejects.toThrow(/ENOENT/);
      expect(reg.wipes).toBe(0);
      expect(m.restoreTargets()[0].startOffset).toBe(42);
      await m.restore(fakeRestorer(50));
      await expect(checkpointText()).rejects.toThrow(/ENOENT/); // not after restore either
    });

    it('wipes a persistent store without checkpoint and restores it fully', async () => {
      const reg = registration();
      const m = manager([reg], true);
      await m.initialize();
      expect(reg.wipes).toBe(1);
      expect(warnings.join()).toMatch(/no checkpoint under exactly-once/);
    });

    it('writes the checkpoint on clean close only; a dirty close wipes the task', async () => {
      const collector = new InMemoryRecordCollector();
      const m = manager([registration()], true, collector);
      await m.initialize();
      collector.startAt(CHANGELOG, 2, 70);
      sendChangelogRecords(collector);
      expect(m.checkpointIfNeeded()).toBe(false);
      await m.close(true);
      expect(await checkpointText()).toBe(`0\n1\n${CHANGELOG} 2 70\n`);

      const dirty = manager([registration()], true);
      await dirty.initialize();
      await dirty.close(false);
      expect(await dir.stateDirectory.listTaskDirs()).toEqual([]);
    });
  });

  it('checkpoints on commit only after more than 10,000 changelog records', async () => {
    const collector = new InMemoryRecordCollector();
    const m = manager([registration()], false, collector);
    await m.initialize();
    await m.restore(fakeRestorer(0));
    const write = (n: number) => sendChangelogRecords(collector, n);
    write(10_000);
    expect(m.checkpointIfNeeded()).toBe(false); // offset 9,999: delta 9,999
    write(2);
    expect(m.checkpointIfNeeded()).toBe(true);
    await m.whenCheckpointed();
    expect(await checkpointText()).toBe(`0\n1\n${CHANGELOG} 2 10001\n`);
    write(5);
    expect(m.checkpointIfNeeded()).toBe(false);
    await m.close(true);
    expect(await checkpointText()).toBe(`0\n1\n${CHANGELOG} 2 10006\n`);
  });

  it('leaves the last checkpoint on a dirty close under at-least-once', async () => {
    await writeCheckpoint(41);
    const m = manager([registration()]);
    await m.initialize();
    await m.close(false);
    expect(await checkpointText()).toBe(`0\n1\n${CHANGELOG} 2 41\n`);
  });
});

import { ChangelogRestoreError } from '../../../errors/changelog-restore.error';
import { InMemoryRecordCollector } from '../../../processor/internals/in-memory-record-collector';
import type { StoreRegistration } from '../../../processor/state-store-context';
import type { RestoreTarget } from '../restore/restore-target';
import type { StateRestorer } from '../restore/state-restorer';
import { TaskStateManager } from './task-state-manager';
import {
  CHANGELOG,
  TASK,
  sendChangelogRecords,
  useTaskDirectory,
} from '../../../../test-support/task-state-test-support';

/**
 * A restorer that wipes the store first (when `wipe`), writes batches ending at `lastOffsets`,
 * then stops as a cancelled restore does (a ChangelogRestoreError).
 */
function stoppedRestorer(lastOffsets: number[], wipe = false): StateRestorer {
  return {
    async restore(targets: readonly RestoreTarget[]) {
      const [target] = targets;
      if (wipe) await target.wipe();
      for (const last of lastOffsets) {
        await target.restoreBatch([{ key: Buffer.from('k'), value: null, timestamp: 0 }], last);
      }
      throw new ChangelogRestoreError(CHANGELOG, 2, 'the restore was aborted');
    },
  } as unknown as StateRestorer;
}

describe('TaskStateManager, a restore stopped part-way', () => {
  const dir = useTaskDirectory('restore-progress-');
  const { checkpointText, writeCheckpoint } = dir;
  const flushes: string[] = [];
  beforeEach(() => {
    flushes.length = 0;
  });

  const manager = (exactlyOnce: boolean, collector = new InMemoryRecordCollector()) => {
    const registration: StoreRegistration = {
      name: 's',
      persistent: true,
      changelog: { topic: CHANGELOG, partition: 2 },
      store: { flush: async () => void flushes.push('s') },
      restoreBatch: () => undefined,
      wipe: async () => undefined,
    } as unknown as StoreRegistration;
    return new TaskStateManager({
      taskId: TASK,
      stateDirectory: dir.stateDirectory,
      registrations: [registration],
      recordCollector: collector,
      exactlyOnce,
      logger: { error: () => {}, info: () => {}, debug: () => {}, warn: () => {} },
    });
  };

  it('checkpoints the last batch written, never an offset the record collector holds', async () => {
    await writeCheckpoint(41);
    // The collector still holds an earlier incarnation's offset of the changelog partition.
    const collector = new InMemoryRecordCollector();
    collector.startAt(CHANGELOG, 2, 500);
    sendChangelogRecords(collector);
    const m = manager(false, collector);
    await m.initialize();
    await expect(m.restore(stoppedRestorer([60, 75]))).rejects.toThrow(ChangelogRestoreError);
    await m.checkpointRestoreProgress();
    expect(flushes).toEqual(['s']);
    expect(await checkpointText()).toBe(`0\n1\n${CHANGELOG} 2 75\n`);
    await m.close('restoring');
    expect(await checkpointText()).toBe(`0\n1\n${CHANGELOG} 2 75\n`);

    const next = manager(false);
    await next.initialize();
    expect(next.restoreTargets()[0].startOffset).toBe(76);
  });

  it('keeps no offset for a store it wiped and wrote nothing to since', async () => {
    await writeCheckpoint(41);
    const m = manager(false);
    await m.initialize();
    await expect(m.restore(stoppedRestorer([], true))).rejects.toThrow(ChangelogRestoreError);
    await m.checkpointRestoreProgress();
    expect(await checkpointText()).toBe('0\n0\n');
  });

  it('exactly-once, older rules: keeps the state and the progress (no wipe on close)', async () => {
    await writeCheckpoint(41);
    const m = manager(true);
    await m.initialize(); // deletes the checkpoint: the stores may not stay committed-only
    await expect(m.restore(stoppedRestorer([60]))).rejects.toThrow(ChangelogRestoreError);
    await m.checkpointRestoreProgress();
    await m.close('restoring');
    expect(await dir.stateDirectory.listTaskDirs()).toHaveLength(1);
    expect(await checkpointText()).toBe(`0\n1\n${CHANGELOG} 2 60\n`);
  });
});

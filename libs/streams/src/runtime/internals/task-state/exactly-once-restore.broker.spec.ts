import { promises as fs } from 'node:fs';
import { KafkaTestContext } from '../../../../../../test/support/kafka-test-context';
import { KafkajsRecordProducer } from '../../../client/kafkajs/kafkajs-record-producer';
import { READER_CLIENTS } from '../../../../test-support/assigned-reader-factories';
import {
  RecordingRestoreListener,
  TASK,
  TaskState,
  changelogEndOffset,
  createChangelog,
  tempStateDir,
} from '../../../../test-support/state-restore.broker-test-support';

describe.each(READER_CLIENTS)('exactly-once state (real broker), read by %s', (readers) => {
  let ctx: KafkaTestContext;
  /** Sends through whichever transaction is open, as the EOS runtime does. */
  let sender: KafkajsRecordProducer;
  let stateDir: string;

  beforeEach(async () => {
    ctx = new KafkaTestContext();
    sender = new KafkajsRecordProducer(ctx.kafka, `${ctx.applicationId}-0_2`);
    await sender.connect();
    stateDir = await tempStateDir();
    await createChangelog(ctx);
  });
  afterEach(async () => {
    await sender.disconnect();
    await ctx.cleanup();
    await fs.rm(stateDir, { recursive: true, force: true });
  });

  /** One EOS commit: records and the changelog in a transaction, committed or aborted. */
  async function transaction(task: TaskState, write: () => void, commit = true): Promise<void> {
    await sender.beginTransaction();
    write();
    await task.store.flush();
    await task.collector.flush();
    if (commit) await sender.commitTransaction();
    else await sender.abortTransaction();
  }

  it('wipes a store left without checkpoint and restores only committed changelog records', async () => {
    const crashed = new TaskState({
      ctx,
      readers,
      stateDir,
      sender,
      caching: true,
      exactlyOnce: true,
    });
    await crashed.open();
    await crashed.restore();
    const committed = new Map<string, string>();
    for (let t = 0; t < 3; t++) {
      await transaction(crashed, () => {
        for (let i = 0; i < 20; i++) {
          crashed.store.put(`k${i}`, `t${t}`);
          committed.set(`k${i}`, `t${t}`);
        }
      });
    }
    // The last transaction aborts: its writes are in the local store, not in the changelog.
    await transaction(
      crashed,
      () => {
        for (let i = 0; i < 30; i++) crashed.store.put(`k${i}`, 'aborted');
      },
      false,
    );
    expect(await crashed.store.getAsync('k25')).toBe('aborted');
    // The process dies: the store's files stay, without a checkpoint.
    await crashed.store.close();
    await crashed.stateDirectory.unlock();
    await expect(fs.access(crashed.stateDirectory.checkpointFilePath(TASK))).rejects.toThrow();

    const restarted = new TaskState({ ctx, readers, stateDir, sender, exactlyOnce: true });
    await restarted.open();
    expect(restarted.logger.warnings.join('\n')).toMatch(
      /no checkpoint under exactly-once; wiping/,
    );
    const listener = new RecordingRestoreListener();
    const [result] = await restarted.restore(listener);
    expect(await restarted.contents()).toEqual([...committed].sort(([a], [b]) => (a < b ? -1 : 1)));
    expect(listener.totalRestored).toBe(60);
    // The log ends with an abort marker, never delivered as a record: the restore still ends.
    expect(result.endOffset).toBe(await changelogEndOffset(ctx));
    expect(result.endOffset).toBe(3 * 21 + 31);

    // A clean close writes the checkpoint even under EOS; the next start uses it, then deletes it.
    await restarted.closeClean();
    const text = await fs.readFile(restarted.stateDirectory.checkpointFilePath(TASK), 'utf8');
    expect(text.split('\n')[2]).toBe(
      `${ctx.applicationId}-counts-store-changelog 2 ${result.endOffset - 1}`,
    );
    const resumed = new TaskState({ ctx, readers, stateDir, sender, exactlyOnce: true });
    await resumed.open();
    await expect(fs.access(resumed.stateDirectory.checkpointFilePath(TASK))).rejects.toThrow();
    const resumedListener = new RecordingRestoreListener();
    const [again] = await resumed.restore(resumedListener);
    expect(again.restored).toBe(0);
    expect(resumedListener.starts).toEqual([]);
    expect((await resumed.contents()).length).toBe(20);
    await resumed.closeClean();
  });
});

import { promises as fs } from 'node:fs';
import { ConfigResourceTypes } from '../../../client/kafkajs/kafkajs';
import type { RecordProducer } from '../../../client/record-producer';
import { KafkaTestContext } from '../../../../../../test/support/kafka-test-context';
import { READER_CLIENTS } from '../../../../test-support/assigned-reader-factories';
import {
  RecordingRestoreListener,
  TASK,
  TaskState,
  changelogEndOffset,
  changelogOf,
  connectedProducer,
  createChangelog,
  tempStateDir,
} from '../../../../test-support/state-restore.broker-test-support';

/** Writes `n` keys (and overwrites and deletes some), committing every `perCommit` puts. */
async function writeSome(
  task: TaskState,
  n: number,
  perCommit = 100,
): Promise<Map<string, string>> {
  const expected = new Map<string, string>();
  for (let i = 0; i < n; i++) {
    const key = `user-${String(i % Math.ceil(n / 2)).padStart(4, '0')}`;
    const value = JSON.stringify({ count: i, sum: i * 1.5 });
    task.timestamp++;
    task.store.put(key, value);
    expected.set(key, value);
    if (i % 7 === 0) {
      task.store.delete(key);
      expected.delete(key);
    }
    if ((i + 1) % perCommit === 0) await task.commit();
  }
  await task.commit();
  return expected;
}

const sorted = (m: Map<string, string>): [string, string][] =>
  [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

describe.each(READER_CLIENTS)('restore from the changelog (real broker), read by %s', (readers) => {
  let ctx: KafkaTestContext;
  let producer: RecordProducer;
  const dirs: string[] = [];
  const stateDir = async () => {
    const dir = await tempStateDir();
    dirs.push(dir);
    return dir;
  };

  beforeEach(async () => {
    ctx = new KafkaTestContext();
    producer = await connectedProducer(ctx);
    await createChangelog(ctx);
  });
  afterEach(async () => {
    await producer.disconnect();
    await ctx.cleanup();
    for (const dir of dirs.splice(0)) await fs.rm(dir, { recursive: true, force: true });
  });

  it('rebuilds identical contents in a fresh state dir after a stop without checkpoint', async () => {
    const first = new TaskState({
      ctx,
      readers,
      stateDir: await stateDir(),
      sender: producer,
      caching: true,
    });
    await first.open();
    await first.restore();
    const expected = await writeSome(first, 1000);
    expect(sorted(new Map(await first.contents()))).toEqual(sorted(expected));
    await first.closeDirty();

    const fresh = new TaskState({ ctx, readers, stateDir: await stateDir(), sender: producer });
    await fresh.open();
    const listener = new RecordingRestoreListener();
    await fresh.restore(listener);
    expect(await fresh.contents()).toEqual(sorted(expected));
    const end = await changelogEndOffset(ctx);
    expect(listener.starts).toEqual([
      {
        tp: { topic: changelogOf(ctx), partition: TASK.partition },
        store: 'counts-store',
        start: 0,
        end,
      },
    ]);
    expect(listener.totalRestored).toBe(end);
    await fresh.closeClean();
  });

  it('restores only the tail after a clean stop wrote the checkpoint', async () => {
    const dir = await stateDir();
    const first = new TaskState({ ctx, readers, stateDir: dir, sender: producer, caching: true });
    await first.open();
    await first.restore();
    const expected = await writeSome(first, 400);
    await first.closeClean();
    const checkpointed = await changelogEndOffset(ctx);
    const checkpoint = await fs.readFile(first.stateDirectory.checkpointFilePath(TASK), 'utf8');
    expect(checkpoint).toBe(`0\n1\n${changelogOf(ctx)} ${TASK.partition} ${checkpointed - 1}\n`);

    // Another instance wrote more while this one was down.
    const tail = Array.from({ length: 25 }, (_, i) => ({ key: `late-${i}`, value: `v${i}` }));
    const record = (key: string, value: string | null) => ({
      key: Buffer.from(key),
      value: value === null ? null : Buffer.from(value),
      timestamp: Date.now(),
    });
    const topic = changelogOf(ctx);
    const partition = TASK.partition;
    await producer.send([
      { topic, partition, records: tail.map(({ key, value }) => record(key, value)) },
    ]);
    await producer.send([{ topic, partition, records: [record('late-0', null)] }]);
    for (const { key, value } of tail) expected.set(key, value);
    expected.delete('late-0');

    const second = new TaskState({ ctx, readers, stateDir: dir, sender: producer });
    await second.open();
    const listener = new RecordingRestoreListener();
    const [result] = await second.restore(listener);
    expect(listener.starts[0].start).toBe(checkpointed);
    expect(listener.totalRestored).toBe(26);
    expect(result).toMatchObject({
      restored: 26,
      startOffset: checkpointed,
      endOffset: checkpointed + 26,
    });
    expect(await second.contents()).toEqual(sorted(expected));
    await second.closeClean();
  });

  it('restores everything, with a warning, when the checkpoint is corrupt', async () => {
    const dir = await stateDir();
    const first = new TaskState({ ctx, readers, stateDir: dir, sender: producer, caching: true });
    await first.open();
    await first.restore();
    const expected = await writeSome(first, 300);
    await first.closeClean();
    await fs.writeFile(first.stateDirectory.checkpointFilePath(TASK), '0\n3\nnot a checkpoint\n');

    const second = new TaskState({ ctx, readers, stateDir: dir, sender: producer });
    await second.open();
    const listener = new RecordingRestoreListener();
    await second.restore(listener);
    expect(second.logger.warnings.join('\n')).toMatch(/checkpoint file .* is corrupt/);
    expect(listener.starts[0].start).toBe(0);
    expect(listener.totalRestored).toBe(await changelogEndOffset(ctx));
    expect(await second.contents()).toEqual(sorted(expected));
    await second.closeClean();
  });

  it('wipes the store and restores again from the log start when the broker deletes records under the restore', async () => {
    const first = new TaskState({ ctx, readers, stateDir: await stateDir(), sender: producer });
    await first.open();
    await first.restore();
    await writeSome(first, 1000);
    await first.closeDirty();
    const end = await changelogEndOffset(ctx);
    const topic = changelogOf(ctx);
    const partition = TASK.partition;
    const logStart = end - 150;
    // A windowed store's changelog policy: the broker refuses DeleteRecords on a topic that
    // is only compacted.
    await (
      await ctx.admin()
    ).alterConfigs({
      validateOnly: false,
      resources: [
        {
          type: ConfigResourceTypes.TOPIC,
          name: topic,
          configEntries: [{ name: 'cleanup.policy', value: 'compact,delete' }],
        },
      ],
    });

    // After the restore's first fetch, the broker deletes the records before `logStart`
    // (`kafka-delete-records`; time or size retention does the same to a windowed changelog):
    // the restore's next position is no longer in the log.
    const restoring = new TaskState({ ctx, readers, stateDir: await stateDir(), sender: producer });
    await restoring.open();
    const listener = new RecordingRestoreListener();
    let fetches = 0;
    const [result] = await restoring.restore(listener, {
      maxBytesPerPartition: 1024,
      readers: (factory) => (options) => {
        const reader = factory(options)!;
        return {
          fetch: async (positions) => {
            if (++fetches === 2) {
              expect(positions[0].offset).toBeLessThan(logStart);
              const admin = await ctx.admin();
              await admin.deleteTopicRecords({
                topic,
                partitions: [{ partition, offset: String(logStart) }],
              });
            }
            return reader.fetch(positions);
          },
          close: () => reader.close(),
        };
      },
    });
    expect(result).toMatchObject({ wiped: true, startOffset: logStart, endOffset: end });
    expect(restoring.logger.warnings.join('\n')).toContain(
      `is no longer in ${topic}-${partition}: the broker deleted the records before ${logStart}`,
    );

    // What a restore that starts now, from the new log start, builds.
    const fresh = new TaskState({ ctx, readers, stateDir: await stateDir(), sender: producer });
    await fresh.open();
    const [clean] = await fresh.restore();
    expect(clean).toMatchObject({ wiped: false, startOffset: logStart, endOffset: end });
    const contents = await fresh.contents();
    expect(contents.length).toBeGreaterThan(0);
    expect(await restoring.contents()).toEqual(contents);
    expect(result.restored).toBe(clean.restored);
    await restoring.closeClean();
    await fresh.closeClean();
  });
});

import { promises as fs } from 'node:fs';
import { ConfigResourceTypes } from '../../../client/kafkajs/kafkajs';
import { READER_CLIENTS } from '../../../../test-support/assigned-reader-factories';
import {
  RecordingRestoreListener,
  TASK,
  TaskState,
  changelogEndOffset,
  changelogOf,
  useChangelogBroker,
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
  const broker = useChangelogBroker();
  const { stateDir } = broker;

  /** The task, opened in state directory `dir` (a new one unless given). */
  const openTask = async (dir?: string, caching = false): Promise<TaskState> => {
    const task = new TaskState({
      ctx: broker.ctx,
      readers,
      stateDir: dir ?? (await stateDir()),
      sender: broker.producer,
      caching,
    });
    await task.open();
    return task;
  };
  /** The task, opened, restored, and `n` keys written (see writeSome), caching unless told. */
  const writtenTask = async (n: number, dir?: string, caching = true) => {
    const task = await openTask(dir, caching);
    await task.restore();
    return { task, expected: await writeSome(task, n) };
  };

  it('rebuilds identical contents in a fresh state dir after a stop without checkpoint', async () => {
    const { ctx } = broker;
    const { task: first, expected } = await writtenTask(1000);
    expect(sorted(new Map(await first.contents()))).toEqual(sorted(expected));
    await first.closeDirty();

    const fresh = await openTask();
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
    const { ctx, producer } = broker;
    const dir = await stateDir();
    const { task: first, expected } = await writtenTask(400, dir);
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

    const second = await openTask(dir);
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
    const { ctx } = broker;
    const dir = await stateDir();
    const { task: first, expected } = await writtenTask(300, dir);
    await first.closeClean();
    await fs.writeFile(first.stateDirectory.checkpointFilePath(TASK), '0\n3\nnot a checkpoint\n');

    const second = await openTask(dir);
    const listener = new RecordingRestoreListener();
    await second.restore(listener);
    expect(second.logger.warnings.join('\n')).toMatch(/checkpoint file .* is corrupt/);
    expect(listener.starts[0].start).toBe(0);
    expect(listener.totalRestored).toBe(await changelogEndOffset(ctx));
    expect(await second.contents()).toEqual(sorted(expected));
    await second.closeClean();
  });

  it('wipes the store and restores again from the log start when the broker deletes records under the restore', async () => {
    const { ctx } = broker;
    const { task: first } = await writtenTask(1000, undefined, false);
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
    const restoring = await openTask();
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
    const fresh = await openTask();
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

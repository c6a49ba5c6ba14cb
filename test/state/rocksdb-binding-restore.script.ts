/**
 * Runs the restore scenarios on the `rocksdb` binding (asynchronous reads only) in a process
 * of its own: the two RocksDB bindings cannot share a process, and Jest workers outlive test
 * files. Prints one JSON line with what it saw; `rocksdb-binding-restore.test.ts` asserts.
 */
import { promises as fs } from 'node:fs';
import { KafkaTestContext } from '../support/kafka-test-context';
import {
  RecordingRestoreListener,
  TaskState,
  changelogEndOffset,
  connectedProducer,
  createChangelog,
  tempStateDir,
} from './state-test-kit';

async function main(): Promise<void> {
  const ctx = new KafkaTestContext();
  const producer = await connectedProducer(ctx);
  const dirs = [await tempStateDir(), await tempStateDir()];
  try {
    await createChangelog(ctx);
    const engine = 'rocksdb' as const;
    const first = new TaskState({
      ctx,
      stateDir: dirs[0],
      sender: producer,
      caching: true,
      engine,
    });
    await first.open();
    await first.restore();
    const expected = new Map<string, string>();
    for (let i = 0; i < 600; i++) {
      const key = `k${i % 250}`;
      await first.store.prefetch([key]); // the hot path of an async-only engine
      const previous = first.store.get(key);
      const value = `${previous ?? ''}|${i}`;
      first.store.put(key, value);
      expected.set(key, value);
      if (i % 100 === 99) await first.commit();
    }
    await first.commit();
    const written = [...expected].sort(([a], [b]) => (a < b ? -1 : 1));
    const beforeStop = await first.contents();
    await first.closeDirty();

    const fresh = new TaskState({ ctx, stateDir: dirs[1], sender: producer, engine });
    await fresh.open();
    const freshListener = new RecordingRestoreListener();
    await fresh.restore(freshListener);
    const restored = await fresh.contents();
    await fresh.closeClean();

    await producer.send({
      topic: fresh.manager.changelogOffsets()[0].topic,
      messages: Array.from({ length: 10 }, (_, i) => ({
        key: `tail${i}`,
        value: 'x',
        partition: 2,
      })),
    });
    const again = new TaskState({ ctx, stateDir: dirs[1], sender: producer, engine });
    await again.open();
    const tailListener = new RecordingRestoreListener();
    await again.restore(tailListener);
    const afterTail = (await again.contents()).length;
    await again.closeClean();

    process.stdout.write(
      `${JSON.stringify({
        writtenMatchesStore: JSON.stringify(beforeStop) === JSON.stringify(written),
        restoredMatches: JSON.stringify(restored) === JSON.stringify(written),
        endOffset: await changelogEndOffset(ctx),
        freshRestored: freshListener.totalRestored,
        tailRestored: tailListener.totalRestored,
        entriesAfterTail: afterTail,
        entriesWritten: written.length,
      })}\n`,
    );
  } finally {
    await producer.disconnect();
    await ctx.cleanup();
    for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});

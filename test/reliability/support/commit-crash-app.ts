/**
 * A child process for the commit-crash scenario: runs the source text's two aggregations
 * (`stats-store`, `windowed-count-store`, caching off so every event writes both changelogs)
 * under exactly_once_v2 with tiny memtables, and SIGKILLs itself the `KILL_AT`-th time any of its tasks reaches
 * commit phase `KILL_PHASE` (see `CommitPhase`). It prints `STATE <state>`, one
 * `RESTORE <store> <partition> <start> <end>` line per changelog partition it restores, and
 * `KILLING <phase> <n>` right before it dies. On SIGTERM it dumps both stores to $DUMP_FILE
 * and closes cleanly.
 */
import { writeFileSync, writeSync } from 'node:fs';
import {
  BoundedMemoryRocksDBConfig,
  KafkaStreams,
  QueryableStoreTypes,
  StoreQueryParameters,
  type Windowed,
} from '@nest-streams/streams';
import { onCommitPhase, type CommitPhase } from '@nest-streams/testing';
import { dslTopology } from '../../runtime/dsl-topology';
import type { OrderStats } from '../../runtime/stats-topology';
import { storeContents } from '../../support/store-contents';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};
/** Written straight to fd 1: the process may be SIGKILLed right after. */
const say = (line: string): void => void writeSync(1, `${line}\n`);

function installKill(): void {
  const phase = process.env.KILL_PHASE as CommitPhase | undefined;
  const at = Number(process.env.KILL_AT ?? 0);
  if (phase === undefined || !(at > 0)) return;
  let seen = 0;
  onCommitPhase((reached) => {
    if (reached !== phase || ++seen !== at) return;
    say(`KILLING ${phase} ${seen}`);
    process.kill(process.pid, 'SIGKILL');
  });
}

function windowedContents(streams: KafkaStreams): Record<string, number> {
  const store = streams.store(
    StoreQueryParameters.fromNameAndType(
      'windowed-count-store',
      QueryableStoreTypes.windowStore<string, number>(),
    ),
  );
  const counts: Record<string, number> = {};
  for (const { key, value } of store.all() as Iterable<{ key: Windowed<string>; value: number }>) {
    counts[`${key.key}@${key.window.start}`] = Number(value);
  }
  return counts;
}

async function main(): Promise<void> {
  installKill();
  const streams = new KafkaStreams(
    dslTopology(env('INPUT_TOPIC'), env('OUTPUT_TOPIC'), false),
    {
      applicationId: env('APPLICATION_ID'),
      bootstrapServers: env('KAFKA_BROKERS').split(','),
      stateDir: env('STATE_DIR'),
      processingGuarantee: 'exactly_once_v2',
      // Tiny memtables under one small budget: RocksDB flushes them on its own, in the middle
      // of transactions, so uncommitted writes would reach the SST files if they reached
      // RocksDB at all.
      rocksDBConfigSetter: new BoundedMemoryRocksDBConfig({
        totalOffHeapBytes: 16 * 1024 * 1024,
        totalMemtableBytes: 256 * 1024,
        writeBufferSize: 64 * 1024,
      }),
      // A killed member leaves the group after this: short, so the scenario does not wait.
      sessionTimeoutMs: 6000,
      heartbeatIntervalMs: 1000,
    },
    { logger: { info: () => undefined, warn: (m) => process.stderr.write(`${m}\n`) } },
  );
  streams.setGlobalStateRestoreListener({
    onRestoreStart: (tp, store, start, end) =>
      say(`RESTORE ${store} ${tp.partition} ${start} ${end}`),
  });
  streams.onStateChange((state) => say(`STATE ${state}`));
  let stopping = false;
  process.on('SIGTERM', () => {
    if (stopping) return;
    stopping = true;
    void (async () => {
      const stats = Object.fromEntries(storeContents<OrderStats>(streams, 'stats-store'));
      const windowed = windowedContents(streams);
      await streams.close();
      writeFileSync(env('DUMP_FILE'), JSON.stringify({ stats, windowed }));
      process.exit(0);
    })();
  });
  await streams.start();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});

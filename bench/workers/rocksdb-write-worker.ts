/**
 * Child process: the store ceiling. Writes every event's key and value (the run's events
 * file, `key\tvalue` lines) into a fresh RocksDB database through @nxtedition/rocksdb as
 * nest-streams' engine opens it (its bytes store, Kafka Streams' default options), in atomic
 * write batches of `--batch-size`, then fsyncs the WAL. Measures the writes and the final
 * flush (not the file reading); reads every key back to check it holds its last value.
 *
 *   node --import tsx bench/workers/rocksdb-write-worker.ts --events-file F --directory D
 *     --batch-size 1000
 */
import { readFileSync } from 'node:fs';
import { Stores, type BytesWrite } from '@nest-streams/streams';
import { emitResult, peakRssMb, requiredOptions } from './worker-support';

async function main(): Promise<void> {
  const args = requiredOptions(['events-file', 'directory', 'batch-size']);
  const batchSize = Number(args['batch-size']);
  const writes: BytesWrite[] = [];
  const last = new Map<string, Buffer>();
  for (const line of readFileSync(args['events-file'], 'utf8').split('\n')) {
    if (line === '') continue;
    const tab = line.indexOf('\t');
    const key = line.slice(0, tab);
    const value = Buffer.from(line.slice(tab + 1));
    writes.push({ key: Buffer.from(key), value });
    last.set(key, value);
  }

  // The engine of a persistent key-value store, as a task opens it (no layers above it).
  const store = Stores.persistentKeyValueStore('bench-raw').get({
    directory: args.directory,
    configs: {},
  });
  await store.open();
  const started = performance.now();
  for (let from = 0; from < writes.length; from += batchSize) {
    store.putAll(writes.slice(from, from + batchSize));
  }
  await store.flush();
  const seconds = (performance.now() - started) / 1000;
  const peak = peakRssMb();

  let mismatches = 0;
  let firstMismatch: string | undefined;
  const keys = [...last.keys()];
  const values = store.getMany(keys.map((k) => Buffer.from(k)));
  keys.forEach((key, i) => {
    if (!values[i]?.equals(last.get(key)!)) {
      mismatches++;
      firstMismatch ??= `${key}: got ${values[i]?.toString() ?? 'nothing'}`;
    }
  });
  let entries = 0;
  for (const _entry of store.all()) entries++;
  await store.destroy();
  emitResult({
    records: writes.length,
    seconds,
    peakRssMb: peak,
    storeEntries: entries,
    mismatches,
    firstMismatch,
  });
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`rocksdb-write-worker failed: ${String(error)}\n`);
    process.exit(1);
  },
);

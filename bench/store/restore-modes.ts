/**
 * The restore part of the store benchmark: records applied to an empty store as a changelog
 * restore applies them, in every way an engine can (see `restoreModes`).
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Stores, type BytesStore, type BytesWrite } from '@nest-streams/streams';
import type { BenchData } from './seeded-data';
import type { EngineFactory, StoreBenchParams } from './store-bench';

/** How a restore variant loads its records. */
export interface RestoreMode {
  readonly operation: string;
  readonly create: EngineFactory;
  /** Records per SST file, for engines that bulk-load; undefined = write batches. */
  readonly sstChunk?: number;
}

/** The restore variants measured per engine: every engine's default, more for the addon. */
export function restoreModes(engine: string, create: EngineFactory): RestoreMode[] {
  const modes: RestoreMode[] = [{ operation: 'restore', create }];
  if (engine === 'native-rocksdb') {
    modes.push(
      {
        operation: 'restore-wal-on',
        create: (root, name) =>
          Stores.persistentKeyValueStore(name, {
            configSetter: { setConfig: (_store, options) => void (options.walEnabled = true) },
          }).get({ directory: join(root, name), configs: {} }),
      },
      { operation: 'restore-sst', create, sstChunk: 250_000 },
    );
  }
  return modes;
}

/**
 * Records in fetched batches of batchSize into an empty store, as a changelog restore reads
 * them, then the engine's flush; resolves with the seconds it took.
 */
export async function restore(
  mode: RestoreMode,
  data: BenchData,
  params: StoreBenchParams,
  root: string,
  engine: string,
): Promise<number> {
  const { keys, writeOrder } = data;
  const n = keys.length;
  const store = mode.create(root, `${engine}-${mode.operation}`);
  await store.open();
  let pending: BytesWrite[] = [];
  const start = performance.now();
  for (let offset = 0; offset < params.restoreRecords; offset += params.batchSize) {
    const end = Math.min(offset + params.batchSize, params.restoreRecords);
    const batch: BytesWrite[] = new Array<BytesWrite>(end - offset);
    for (let j = offset; j < end; j++) {
      const index = writeOrder[j % n];
      batch[j - offset] = { key: keys[index], value: data.value(j) };
    }
    if (mode.sstChunk === undefined) {
      store.putAll(batch);
    } else {
      pending.push(...batch);
      if (pending.length >= mode.sstChunk || end === params.restoreRecords) {
        await bulkLoader(store)(pending);
        pending = [];
      }
    }
    await nextTurn(); // a restore awaits its next fetch between batches
  }
  await store.flush();
  const elapsed = (performance.now() - start) / 1000;
  const sample = keys[writeOrder[(params.restoreRecords - 1) % n]];
  const expected = data.value(params.restoreRecords - 1);
  if (!(await store.getAsync(sample))?.equals(expected)) {
    throw new Error(`${engine}:${mode.operation}: the last record is not in the store`);
  }
  await store.destroy();
  return elapsed;
}

/** The addon engine's `bulkLoad` (sorted SST file + ingestion), not part of `BytesStore`. */
function bulkLoader(store: BytesStore): (writes: readonly BytesWrite[]) => Promise<void> {
  const { bulkLoad } = store as { bulkLoad?: (writes: readonly BytesWrite[]) => Promise<void> };
  if (typeof bulkLoad !== 'function') {
    throw new Error(`${store.name}: this engine cannot bulk-load SST files`);
  }
  return (writes) => bulkLoad.call(store, writes);
}

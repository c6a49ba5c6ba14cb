import { join } from 'node:path';
import { runChild } from '../harness/child-process';
import { rowFromWorker } from '../harness/child-row';
import { nodeWorker } from '../harness/node-worker';
import type { RunContext } from '../harness/run-context';
import type { SystemRow } from '../harness/system-row';

/** The label of the store ceiling. */
export const ROCKSDB_CEILING = 'RocksDB batch writes only (@nxtedition/rocksdb, ceiling)';

/**
 * Writes every event's key and value into RocksDB in batches of 1000 (bytes store of the
 * engine, no serdes, cache or changelog): the ceiling of the store path. Checks that every
 * distinct key holds its last value.
 */
export async function runRocksdbCeiling(
  ctx: RunContext,
  eventsFile: string,
  expected: { records: number; distinctKeys: number },
): Promise<SystemRow> {
  ctx.log(`running ${ROCKSDB_CEILING}...`);
  const outcome = await runChild(
    nodeWorker(
      'rocksdb-write-worker',
      [
        '--events-file',
        eventsFile,
        '--directory',
        join(ctx.workDir, 'rocksdb-raw'),
        '--batch-size',
        '1000',
      ],
      { label: 'rocksdb', timeoutMs: ctx.options.timeoutMs, verbose: ctx.options.verbose },
    ),
  );
  return rowFromWorker(
    { system: ROCKSDB_CEILING, role: 'store-ceiling', compareKey: 'ceiling' },
    outcome,
    expected.records,
    undefined,
    (parsed) =>
      parsed.storeEntries === expected.distinctKeys
        ? undefined
        : `${String(parsed.storeEntries)} keys in the store, expected ${expected.distinctKeys}`,
  ).row;
}

import { SstFileWriter, WriteBatch } from '@nest-streams/rocksdb';
import type { RocksDBOptionValues } from '../../rocksdb-options';
import { assertBuffer } from '../byte-range';
import type { BytesWrite } from '../../bytes-store';

/**
 * Writes `writes` to a new SST file at `file`, sorted by key (unsigned bytes), the last write
 * of each key kept (`null` values as tombstones), with the store's table settings. Returns
 * false, writing nothing, when there are no writes.
 *
 * Throws a `TypeError` for a key or value that is not a Buffer (before creating the file) and
 * `RocksDBError` when writing fails (the unfinished file is deleted).
 */
export function writeSstFile(
  file: string,
  writes: readonly BytesWrite[],
  options: Pick<RocksDBOptionValues, 'blockSize' | 'bloomFilterBitsPerKey' | 'compression'>,
): boolean {
  const latest = new Map<string, number>();
  for (let i = 0; i < writes.length; i++) {
    const { key, value } = writes[i];
    assertBuffer(key, 'key');
    if (value !== null) {
      assertBuffer(value, 'value');
    }
    latest.set(key.toString('latin1'), i);
  }
  if (latest.size === 0) {
    return false;
  }
  const order = [...latest.values()].sort((a, b) => Buffer.compare(writes[a].key, writes[b].key));
  const batch = new WriteBatch();
  for (const index of order) {
    const { key, value } = writes[index];
    if (value === null) {
      batch.delete(key);
    } else {
      batch.put(key, value);
    }
  }
  const writer = new SstFileWriter(file, {
    blockSize: options.blockSize,
    bloomFilterBitsPerKey: options.bloomFilterBitsPerKey,
    compression: options.compression,
  });
  try {
    writer.add(batch);
    writer.finish();
    return true;
  } catch (cause) {
    writer.abandon();
    throw cause;
  }
}

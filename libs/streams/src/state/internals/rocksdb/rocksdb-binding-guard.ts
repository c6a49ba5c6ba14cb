import { readFileSync } from 'node:fs';
import { RocksDBBindingConflictError } from '../../../errors/rocksdb-binding-conflict.error';

/** The RocksDB bindings the engines use. */
export type RocksDBBinding = '@nest-streams/rocksdb' | '@nxtedition/rocksdb';

const NATIVE_MODULE: Readonly<Record<RocksDBBinding, RegExp>> = {
  // The project's own addon, linked against the system's librocksdb.
  '@nest-streams/rocksdb': /\/nest_streams_rocksdb\.node$/m,
  '@nxtedition/rocksdb': /\/@nxtedition\/rocksdb\/[^\n]*\.node$/m,
};

/**
 * The RocksDB bindings whose native code is mapped into this process, read from
 * `/proc/self/maps` (Linux only: elsewhere the answer is always empty).
 */
export function loadedRocksDBBindings(): RocksDBBinding[] {
  let maps: string;
  try {
    maps = readFileSync('/proc/self/maps', 'utf8');
  } catch {
    return [];
  }
  return (Object.keys(NATIVE_MODULE) as RocksDBBinding[]).filter((binding) =>
    NATIVE_MODULE[binding].test(maps),
  );
}

/**
 * Refuses to load `binding` into a process that has loaded the other RocksDB binding.
 *
 * Why: the system librocksdb (7.8) that `@nest-streams/rocksdb` links and the RocksDB (9.7)
 * that `@nxtedition/rocksdb` bundles export 29 of the same GNU-unique C++ symbols
 * (function-local statics such as `UncompressionDict::GetEmptyDict()::empty_dict`) with
 * different sizes (64 and 72 bytes). The dynamic linker merges those across libraries even
 * when they are loaded privately, so one RocksDB builds its object in the other's memory and
 * overwrites what follows it.
 *
 * Throws `RocksDBBindingConflictError`: use one binding per process (run the other one, e.g.
 * in a benchmark or a test, in a separate process).
 */
export function assertSingleRocksDBBinding(storeName: string, binding: RocksDBBinding): void {
  const other = loadedRocksDBBindings().find((loaded) => loaded !== binding);
  if (other !== undefined) {
    throw new RocksDBBindingConflictError(storeName, binding, other);
  }
}

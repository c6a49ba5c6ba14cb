import { nativeAddon } from './internals/native';
import type { Compression } from './options';

/**
 * Whether the addon is built and loads. Never throws: the way to choose an engine at start
 * (`nativeAddon` errors say why it is not there).
 */
export function isRocksDBAvailable(): boolean {
  try {
    nativeAddon();
    return true;
  } catch {
    return false;
  }
}

/** The system RocksDB's version, e.g. `7.8.3`. Throws `RocksDBUnavailableError` without it. */
export function rocksdbVersion(): string {
  return nativeAddon().rocksdbVersion;
}

/** The compressions the system RocksDB was built with. Throws `RocksDBUnavailableError`. */
export function supportedCompressions(): Compression[] {
  return nativeAddon().supportedCompressions() as Compression[];
}

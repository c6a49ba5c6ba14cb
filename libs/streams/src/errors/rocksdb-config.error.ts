import { StreamsError } from './streams.error';

/**
 * RocksDB options that the chosen engine cannot apply (a `RocksDBConfigSetter` asked for a
 * setting the binding does not expose, or a value out of range). Engines reject such options
 * at `open()` instead of silently ignoring them.
 *
 * What to do: change the config setter (every problem is listed in `problems`), or pick the
 * engine that supports the setting. Retrying does not help.
 */
export class RocksDBConfigError extends StreamsError.coded('ROCKSDB_CONFIG_INVALID', false) {
  constructor(
    /** The store's name. */
    readonly storeName: string,
    /** The engine that rejected the options, e.g. `@nxtedition/rocksdb`. */
    readonly engine: string,
    /** One human-readable line per rejected option. */
    readonly problems: readonly string[],
  ) {
    super(
      `RocksDB options for store '${storeName}' cannot be applied by ${engine}: ${problems.join('; ')}`,
    );
  }
}

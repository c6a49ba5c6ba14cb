/** What to install, per platform, for the addon to build. */
export const ROCKSDB_INSTALL_HINT =
  'install RocksDB and a C++ toolchain, then run `npm rebuild @nest-streams/rocksdb`: ' +
  'on Debian/Ubuntu `apt-get install librocksdb-dev build-essential python3`, ' +
  'on macOS `brew install rocksdb` (and `xcode-select --install`)';

/**
 * The native addon is not there: it was not built at install (no system RocksDB, no compiler)
 * or cannot be loaded (built for another Node ABI or platform, or the RocksDB shared library
 * is gone).
 *
 * What to do: install what `installHint` names and rebuild the package; until then use another
 * engine (nest-streams falls back to `@nxtedition/rocksdb`, without a shared cache, memtable
 * flush or WAL-off writes). `reason` is why the install script did not build it, when it
 * recorded one; `cause` the loader's own error.
 */
export class RocksDBUnavailableError extends Error {
  override readonly name = 'RocksDBUnavailableError';
  readonly code = 'ROCKSDB_NATIVE_UNAVAILABLE';
  readonly installHint = ROCKSDB_INSTALL_HINT;

  constructor(
    /** Why the install script did not build the addon, when it said so. */
    readonly reason: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(
      `@nest-streams/rocksdb: the native addon is not available` +
        `${reason === undefined ? '' : ` (${reason})`}: ${ROCKSDB_INSTALL_HINT}`,
      options,
    );
  }
}

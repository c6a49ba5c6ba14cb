import { isRocksDBAvailable, rocksdbVersion } from '@nest-streams/rocksdb';
import { loadedRocksDBBindings, type RocksDBBinding } from './rocksdb-binding-guard';

/** The RocksDB engine every persistent store of this process runs on. */
export interface RocksDBEngineChoice {
  /** `@nest-streams/rocksdb` (the system RocksDB, the default) or the `@nxtedition/rocksdb` fallback. */
  readonly engine: RocksDBBinding;
  /** Why the fallback was taken (undefined on the default engine). */
  readonly fallbackReason?: string;
}

/** What a process loses on the fallback engine, as the start log says it. */
export const FALLBACK_LOSSES =
  'a block cache and write-buffer manager shared by every store (BoundedMemoryRocksDBConfig ' +
  'cannot bound memory: it grows with every store and window segment), memtable flush ' +
  '(checkpoints rely on the WAL, replayed at every restart), WAL-off writes (restores write ' +
  'the WAL too) and maxWriteBufferNumber (fixed at 6 memtables per store)';

/** Where the choice is logged (the client's logger). */
export interface RocksDBEngineChoiceLogger {
  info(message: string): void;
  warn(message: string): void;
}

let chosen: RocksDBEngineChoice | undefined;

/**
 * Chooses the RocksDB engine once per process, before the first persistent store opens: the
 * project's addon `@nest-streams/rocksdb` when it is built and loads, else
 * `@nxtedition/rocksdb`, logging once (a warning through `logger`) what the fallback loses
 * and why it was taken. Later calls return the same choice and log nothing.
 *
 * The two cannot share a process (their RocksDB libraries export the same C++ symbols), so the
 * choice is final: a process that already loaded `@nxtedition/rocksdb` keeps it.
 * `NEST_STREAMS_ROCKSDB_DISABLE=1` forces the fallback (tests, benchmarks).
 *
 * Never throws: when neither engine can load, opening a store throws the engine's error.
 */
export function chooseRocksDBEngine(logger?: RocksDBEngineChoiceLogger): RocksDBEngineChoice {
  if (chosen !== undefined) return chosen;
  const choice = decide();
  chosen = choice;
  if (choice.fallbackReason !== undefined) {
    (logger ?? consoleWarnings).warn(
      `RocksDB engine: @nxtedition/rocksdb, because @nest-streams/rocksdb is not available ` +
        `(${choice.fallbackReason}). Lost on this engine: ${FALLBACK_LOSSES}.`,
    );
  } else {
    logger?.info(`RocksDB engine: @nest-streams/rocksdb (system RocksDB ${rocksdbVersion()})`);
  }
  return choice;
}

/**
 * {@link chooseRocksDBEngine} when one of a topology's store builders makes a persistent store
 * (a client starts with it, so the choice and a fallback are logged before a store opens).
 * Never throws.
 */
export function chooseRocksDBEngineFor(
  builders: Iterable<unknown>,
  logger: RocksDBEngineChoiceLogger,
): void {
  const persistent = (builder: unknown): boolean =>
    (builder as { supplier?: { persistent?: boolean } }).supplier?.persistent === true;
  if ([...builders].some(persistent)) chooseRocksDBEngine(logger);
}

/** The choice made so far, if any (for metrics and tests). */
export function chosenRocksDBEngine(): RocksDBEngineChoice | undefined {
  return chosen;
}

function decide(): RocksDBEngineChoice {
  // A disabled addon never loads (so the check below cannot hurt), and its reason says more.
  const disabled = process.env.NEST_STREAMS_ROCKSDB_DISABLE === '1';
  if (!disabled && loadedRocksDBBindings().includes('@nxtedition/rocksdb')) {
    return {
      engine: '@nxtedition/rocksdb',
      fallbackReason: '@nxtedition/rocksdb is already loaded in this process',
    };
  }
  if (isRocksDBAvailable()) return { engine: '@nest-streams/rocksdb' };
  let reason = 'the addon does not load';
  try {
    rocksdbVersion();
  } catch (error) {
    reason = error instanceof Error ? error.message : String(error);
  }
  return { engine: '@nxtedition/rocksdb', fallbackReason: reason };
}

const consoleWarnings: Pick<RocksDBEngineChoiceLogger, 'warn'> = {
  warn: (message) => console.warn(message),
};

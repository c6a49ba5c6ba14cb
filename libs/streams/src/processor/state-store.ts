import type { StateStoreContext } from './state-store-context';

/**
 * What every state store is to its task: a named resource opened with the task's context,
 * flushed on commit and closed with the task.
 *
 * Errors: `init` throws `ProcessorStateError` when the engine cannot open (the task fails;
 * its state is wiped and restored on the next attempt) and `RocksDBConfigError` for options a
 * config setter got wrong (fix the setter). `flush` and `close` throw `ProcessorStateError`
 * when the engine fails: close the task dirty.
 */
export interface StateStore {
  /** The store's name, unique within the topology. */
  readonly name: string;
  /** Whether the data survives a restart (RocksDB) or lives only in memory. */
  readonly persistent: boolean;
  /** Opens the store for one task and registers it with the task's state manager. */
  init(context: StateStoreContext): Promise<void>;
  /** Writes cached entries through and makes every write durable in the engine. */
  flush(): Promise<void>;
  /** Flushes and closes. Idempotent. */
  close(): Promise<void>;
  isOpen(): boolean;
}

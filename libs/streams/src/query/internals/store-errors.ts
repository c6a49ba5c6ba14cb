import { StoreClosedError } from '../../errors/store-closed.error';
import { StateStoreMigratedError } from '../../errors/invalid-state-store.error';

/**
 * Runs a read against local stores; a store closed underneath (its task moved away during a
 * rebalance) becomes {@link StateStoreMigratedError}: rediscover the owner and retry.
 */
export function readingStore<T>(name: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw migratedIfClosed(name, error);
  }
}

/** {@link readingStore} for asynchronous reads. */
export async function readingStoreAsync<T>(name: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw migratedIfClosed(name, error);
  }
}

/** The error a failed read of store `name` throws: a closed store has migrated. */
function migratedIfClosed(name: string, error: unknown): unknown {
  if (!(error instanceof StoreClosedError)) return error;
  return new StateStoreMigratedError(
    `store '${name}' moved to another instance: rediscover its owner and retry`,
    { cause: error },
  );
}

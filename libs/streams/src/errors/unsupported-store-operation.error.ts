import { StreamsError } from './streams.error';

/**
 * An operation the storage engine cannot perform, e.g. a synchronous read on an engine whose
 * `capabilities.syncReads` is false.
 *
 * What to do: this is a programming error, fix the caller. Check the engine's `capabilities`
 * first and use the asynchronous counterpart (`getAsync`, `getManyAsync`, `rangeAsync`,
 * `prefixScanAsync`), or a blind `put(key, null)` instead of `delete(key)`.
 */
export class UnsupportedStoreOperationError extends StreamsError.coded(
  'STORE_OPERATION_UNSUPPORTED',
  false,
) {
  constructor(
    /** The store's name. */
    readonly storeName: string,
    /** The method that was called. */
    readonly operation: string,
    reason: string,
  ) {
    super(`State store '${storeName}' does not support ${operation}(): ${reason}`);
  }
}

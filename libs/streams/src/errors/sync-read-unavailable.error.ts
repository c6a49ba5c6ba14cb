import { StreamsError } from './streams.error';

/**
 * A synchronous read reached a storage engine that only reads asynchronously (the `rocksdb`
 * binding), for a key the caching layer had not prefetched.
 *
 * What to do: prefetch the batch's keys first (`store.prefetch(keys)`, one multi-get), or use
 * the asynchronous reads (`getAsync`, interactive queries), or an engine with synchronous
 * reads. A programming error: not retriable.
 */
export class SyncReadUnavailableError extends StreamsError.coded(
  'STORE_SYNC_READ_UNAVAILABLE',
  false,
) {
  constructor(readonly storeName: string) {
    super(
      `store ${storeName}: synchronous read of a key that was not prefetched, on an engine without synchronous reads; call prefetch(keys) before processing the batch`,
    );
  }
}

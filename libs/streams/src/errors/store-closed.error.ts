import { StreamsError } from './streams.error';

/**
 * A state store was used while it is not open: before `open()`, after `close()` or
 * `destroy()`, or through an iterator that outlived its store.
 *
 * What to do: do not retry on the same store object. A processor should never see this (the
 * runtime only runs tasks whose stores are open); an interactive query that sees it raced a
 * rebalance or a shutdown and should look the store up again (rediscover) before retrying.
 */
export class StoreClosedError extends StreamsError.coded('STORE_CLOSED', false) {
  constructor(
    /** The store's name. */
    readonly storeName: string,
    detail = 'is not open',
  ) {
    super(`State store '${storeName}' ${detail}.`);
  }
}

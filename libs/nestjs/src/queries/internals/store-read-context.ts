import { AsyncLocalStorage } from 'node:async_hooks';

/** How store reads made inside a request behave. */
export interface StoreReadOptions {
  /** Read standby (and restoring) copies too: the answer may lag the active copy. */
  readonly staleStores: boolean;
}

const storage = new AsyncLocalStorage<StoreReadOptions>();

/**
 * Carries per-request read options to the injected store facades without threading them
 * through handler arguments: `StoreRoutingInterceptor` runs a handler inside
 * `StoreReadContext.run({ staleStores: true }, ...)` when it answers from a standby copy.
 */
export class StoreReadContext {
  /** Runs `fn` (and everything it starts) with `options`. */
  static run<T>(options: StoreReadOptions, fn: () => T): T {
    return storage.run(options, fn);
  }

  /** The options of the current request, or the defaults (active copies only). */
  static current(): StoreReadOptions {
    return storage.getStore() ?? { staleStores: false };
  }
}

import { AsyncLocalStorage } from 'node:async_hooks';
import {
  type KafkaStreams,
  type QueryableStoreType,
  type ServedCopy,
  StoreQueryParameters,
} from '@nest-streams/streams';

/** How store reads made inside a request behave. */
export interface StoreReadOptions {
  /** Read standby copies too: the answer may lag the active copy. */
  readonly staleStores: boolean;
}

/** A copy that answered a read of the current request, and which instance holds it. */
export interface ServedRead extends ServedCopy {
  /** The instance (`application.server`) whose copy answered; absent: this instance. */
  readonly servedBy?: string;
}

/** What a request's reads were answered from, so far. */
export interface StoreReadRecord extends StoreReadOptions {
  readonly served: ServedRead[];
}

const storage = new AsyncLocalStorage<StoreReadRecord>();

/**
 * Carries per-request read options to the injected store facades and the interactive query
 * service without threading them through handler arguments, and collects which copy answered
 * each of the request's reads: `StoreRoutingInterceptor` runs every handler inside
 * `StoreReadContext.run(...)` (with `staleStores: true` when it answers from a standby copy),
 * then marks the answer `X-Stale`/`X-Lag` when a standby copy actually answered.
 */
export class StoreReadContext {
  /** Runs `fn` (and everything it starts) with `options`; returns its result. */
  static run<T>(options: StoreReadOptions, fn: () => T): T {
    return storage.run({ staleStores: options.staleStores, served: [] }, fn);
  }

  /** The options and reads of the current request, or the defaults (active copies only). */
  static current(): StoreReadRecord {
    return storage.getStore() ?? { staleStores: false, served: [] };
  }

  /** Notes that `copy` answered a read of the current request (nothing outside a request). */
  static record(copy: ServedRead): void {
    storage.getStore()?.served.push(copy);
  }

  /**
   * The local store `name` of `type` (`KafkaStreams.store()`), read as the current request
   * reads: with stale stores when it answers from a standby copy, and reporting every copy that
   * answers to the request's record. What the store facades read on every call.
   */
  static localStore<T>(streams: KafkaStreams, name: string, type: QueryableStoreType<T>): T {
    const parameters = StoreQueryParameters.fromNameAndType(name, type);
    const record = storage.getStore();
    if (!record) return streams.store(parameters);
    const recording = parameters.withServedListener((copy) => record.served.push(copy));
    return streams.store(record.staleStores ? recording.enableStaleStores() : recording);
  }

  /**
   * The reads of `record` answered by a standby copy, and the largest lag among them, or
   * `undefined` when every read came from an active copy.
   */
  static staleness(record: StoreReadRecord): { readonly lag: number } | undefined {
    const stale = record.served.filter((c) => !c.active);
    if (stale.length === 0) return undefined;
    return { lag: Math.max(...stale.map((c) => c.lag)) };
  }
}

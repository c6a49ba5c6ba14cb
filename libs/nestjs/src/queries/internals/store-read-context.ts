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
  /**
   * Called as soon as a standby copy answers one of the request's reads, with the largest lag
   * among them so far (so the answer can be marked before it is written, in one pass).
   */
  readonly onStale?: (lag: number) => void;
}

/** A copy that answered a read of the current request, and which instance holds it. */
export interface ServedRead extends ServedCopy {
  /** The instance (`application.server`) whose copy answered; absent: this instance. */
  readonly servedBy?: string;
}

/** What a request's reads were answered from, so far. */
export interface StoreReadRecord extends StoreReadOptions {
  /** The standby copies that answered, in order (active copies are not kept). */
  readonly served: ServedRead[];
  /** The largest lag among the standby copies that answered; undefined while none did. */
  staleLag: number | undefined;
}

const storage = new AsyncLocalStorage<StoreReadRecord>();

/** Outside a request: active copies only, nothing recorded. */
const OUTSIDE: StoreReadRecord = Object.freeze({
  staleStores: false,
  served: Object.freeze([]) as unknown as ServedRead[],
  staleLag: undefined,
});

/**
 * Carries per-request read options to the injected store facades and the interactive query
 * service without threading them through handler arguments, and collects which standby copy
 * answered any of the request's reads: every request enters one as it arrives
 * (`RequestReadContextListener`), and a routed handler runs inside `StoreReadContext.run(...)`
 * (with `staleStores: true` when it answers from a standby copy); each has an `onStale` that
 * marks the answer `X-Stale`/`X-Lag` the moment a standby copy answers.
 */
export class StoreReadContext {
  /** Runs `fn` (and everything it starts) with `options`; returns its result. */
  static run<T>(options: StoreReadOptions, fn: () => T): T {
    const record: StoreReadRecord = {
      staleStores: options.staleStores,
      onStale: options.onStale,
      served: [],
      staleLag: undefined,
    };
    return storage.run(record, fn);
  }

  /**
   * Makes `options` the read options of everything that runs from here on in the current
   * execution and what it starts (`AsyncLocalStorage.enterWith`): for a listener of the HTTP
   * server's `request` event, which runs just before the framework handles the request.
   */
  static enter(options: StoreReadOptions): void {
    storage.enterWith({
      staleStores: options.staleStores,
      onStale: options.onStale,
      served: [],
      staleLag: undefined,
    });
  }

  /** The options and reads of the current request, or the defaults (active copies only). */
  static current(): StoreReadRecord {
    return storage.getStore() ?? OUTSIDE;
  }

  /**
   * Notes that `copy` answered a read of the current request (nothing outside a request, and
   * nothing kept for an active copy: only standby answers mark a request).
   */
  static record(copy: ServedRead): void {
    const record = storage.getStore();
    if (record !== undefined) note(record, copy);
  }

  /**
   * The local store `name` of `type` (`KafkaStreams.store()`), read as the current request
   * reads: with stale stores when it answers from a standby copy, and reporting every standby
   * copy that answers to the request's record. Outside such a request, `active` (a view of
   * the active copies kept by the caller, which looks its copies up on every read) when given.
   */
  static localStore<T>(
    streams: KafkaStreams,
    name: string,
    type: QueryableStoreType<T>,
    active?: () => T,
  ): T {
    const record = storage.getStore();
    if (record === undefined || !record.staleStores) {
      // Only active copies answer: nothing stale to record.
      return active ? active() : streams.store(StoreQueryParameters.fromNameAndType(name, type));
    }
    const parameters = StoreQueryParameters.fromNameAndType(name, type)
      .withServedListener((copy) => note(record, copy))
      .enableStaleStores();
    return streams.store(parameters);
  }

  /**
   * The largest lag of the standby copies that answered reads of `record`, or `undefined`
   * when every read came from an active copy.
   */
  static staleness(record: StoreReadRecord): { readonly lag: number } | undefined {
    return record.staleLag === undefined ? undefined : { lag: record.staleLag };
  }
}

function note(record: StoreReadRecord, copy: ServedRead): void {
  if (copy.active) return;
  record.served.push(copy);
  record.staleLag = record.staleLag === undefined ? copy.lag : Math.max(record.staleLag, copy.lag);
  record.onStale?.(record.staleLag);
}

import { SessionWindow } from '../../windowing/session-window';
import { Windowed } from '../../windowing/windowed';
import type { Serde } from '../../serde/serde';
import type { SessionEntries, SessionStore } from '../session-store';
import { CachingSessionBytesStore } from './caching-session-bytes-store';
import { ChangeLoggingSessionBytesStore } from './change-logging-session-bytes-store';
import {
  MeteredSegmentedStore,
  type MeteredSegmentedStoreOptions,
  type WindowedFlushListener,
} from './metered-segmented-store';
import type {
  SessionBytesEntry,
  SessionBytesStore,
  SessionQuery,
} from './segmented-session-bytes.store';
import { SessionKeySchema } from './session-key-schema';
import { NOT_SAMPLED, OP } from './store-metrics';

/** How a {@link MeteredSessionStore} is made; built by `SessionStoreBuilder`. */
export interface MeteredSessionStoreOptions<K, AGG> extends Omit<
  MeteredSegmentedStoreOptions<K, AGG, SessionBytesStore>,
  'valueSerde'
> {
  /** The aggregates' serde. */
  readonly aggSerde: Serde<AGG>;
}

/** Receives the sessions a caching session store writes through, typed. */
export type SessionCacheFlushListenerOf<K, AGG> = WindowedFlushListener<K, AGG>;

/**
 * The metered layer of session stores: typed (serdes), counted, and the one that opens the
 * layers below and registers the store for restore (see {@link MeteredSegmentedStore});
 * changelog records are keyed by session key.
 *
 * Errors: calls before `init` or after `close` throw `StoreClosedError`; the engine throws
 * `InvalidWindowError` for bad times and `UnsupportedStoreOperationError` for synchronous reads
 * it cannot serve (use the `...Async` reads).
 */
export class MeteredSessionStore<K, AGG>
  extends MeteredSegmentedStore<K, AGG, SessionBytesStore>
  implements SessionStore<K, AGG>
{
  /** Session aggregates carry no timestamps: queries return them as stored. */
  get timestampedValues(): boolean {
    return false;
  }

  constructor(options: MeteredSessionStoreOptions<K, AGG>) {
    super(
      { ...options, valueSerde: options.aggSerde },
      { caching: CachingSessionBytesStore, logging: ChangeLoggingSessionBytesStore },
    );
  }

  protected windowedKeyOf(sessionKey: Buffer): Windowed<K> {
    const { key, start, end } = SessionKeySchema.fromBinary(sessionKey);
    return new Windowed(this.keySerde.deserialize(key, this.topic), new SessionWindow(start, end));
  }

  put(sessionKey: Windowed<K>, aggregate: AGG | null): void {
    const stack = this.open();
    const mark = this.metrics.start(OP.put);
    const { start, end } = sessionKey.window;
    stack.put(
      this.keySerde.serialize(sessionKey.key, this.topic),
      start,
      end,
      aggregate === null ? null : this.valueSerde.serialize(aggregate, this.topic),
    );
    if (mark !== NOT_SAMPLED) this.metrics.end(OP.put, mark);
  }

  remove(sessionKey: Windowed<K>): void {
    const stack = this.open();
    this.metrics.add(OP.delete, 1);
    const { start, end } = sessionKey.window;
    stack.remove(this.keySerde.serialize(sessionKey.key, this.topic), start, end);
  }

  fetch(key: K): SessionEntries<K, AGG>;
  fetch(keyFrom: K | undefined, keyTo: K | undefined): SessionEntries<K, AGG>;
  fetch(...args: [K] | [K | undefined, K | undefined]): SessionEntries<K, AGG> {
    const query = args.length === 1 ? this.keyQuery(args[0]) : this.rangeQuery(args[0], args[1]);
    return this.entries(this.open().findSessions(query));
  }

  fetchSession(key: K, start: number, end: number): AGG | undefined {
    const stack = this.open();
    const mark = this.metrics.start(OP.get);
    const bytes = stack.fetchSession(this.keySerde.serialize(key, this.topic), start, end);
    if (mark !== NOT_SAMPLED) this.metrics.end(OP.get, mark);
    return bytes === undefined ? undefined : this.valueSerde.deserialize(bytes, this.topic);
  }

  findSessions(
    key: K,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
  ): SessionEntries<K, AGG> {
    const query = this.keyQuery(key, earliestSessionEndTime, latestSessionStartTime);
    return this.entries(this.open().findSessions(query));
  }

  backwardFindSessions(
    key: K,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
  ): SessionEntries<K, AGG> {
    const query = this.keyQuery(key, earliestSessionEndTime, latestSessionStartTime, true);
    return this.entries(this.open().findSessions(query));
  }

  async fetchAsync(key: K, backward = false): Promise<SessionEntries<K, AGG>> {
    const stack = this.open();
    const query = this.keyQuery(key, undefined, undefined, backward);
    return this.entries(await stack.findSessionsAsync(query));
  }

  async fetchRangeAsync(
    keyFrom: K | undefined,
    keyTo: K | undefined,
    backward = false,
  ): Promise<SessionEntries<K, AGG>> {
    const stack = this.open();
    return this.entries(await stack.findSessionsAsync(this.rangeQuery(keyFrom, keyTo, backward)));
  }

  async fetchSessionAsync(key: K, start: number, end: number): Promise<AGG | undefined> {
    const stack = this.open();
    this.metrics.add(OP.get, 1);
    const bytes = await stack.fetchSessionAsync(
      this.keySerde.serialize(key, this.topic),
      start,
      end,
    );
    return bytes === undefined ? undefined : this.valueSerde.deserialize(bytes, this.topic);
  }

  async findSessionsAsync(
    key: K,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
    backward = false,
  ): Promise<SessionEntries<K, AGG>> {
    const stack = this.open();
    const query = this.keyQuery(key, earliestSessionEndTime, latestSessionStartTime, backward);
    return this.entries(await stack.findSessionsAsync(query));
  }

  private keyQuery(
    key: K,
    earliestSessionEndTime?: number,
    latestSessionStartTime?: number,
    backward = false,
  ): SessionQuery {
    this.metrics.add(OP.range, 1);
    return {
      key: this.keySerde.serialize(key, this.topic),
      earliestSessionEndTime,
      latestSessionStartTime,
      backward,
    };
  }

  private rangeQuery(keyFrom: K | undefined, keyTo: K | undefined, backward = false): SessionQuery {
    this.metrics.add(OP.range, 1);
    return {
      keyFrom: keyFrom === undefined ? undefined : this.keySerde.serialize(keyFrom, this.topic),
      keyTo: keyTo === undefined ? undefined : this.keySerde.serialize(keyTo, this.topic),
      backward,
    };
  }

  private entries(source: Iterable<SessionBytesEntry>): SessionEntries<K, AGG> {
    const result: SessionEntries<K, AGG> = [];
    for (const entry of source) {
      result.push({
        key: new Windowed(
          this.keySerde.deserialize(entry.key, this.topic),
          new SessionWindow(entry.start, entry.end),
        ),
        value: this.valueSerde.deserialize(entry.value, this.topic),
      });
    }
    return result;
  }
}

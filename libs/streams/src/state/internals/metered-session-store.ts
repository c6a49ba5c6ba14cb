import { StoreClosedError } from '../../errors/store-closed.error';
import { SessionWindow } from '../../kstream/windows/session-window';
import { Windowed } from '../../kstream/windows/windowed';
import type { Serde } from '../../serde/serde';
import type { SessionEntries, SessionStore } from '../session-store';
import type { StateStoreContext } from '../state-store-context';
import { CachingSessionBytesStore } from './caching-session-bytes-store';
import { ChangeLoggingSessionBytesStore } from './change-logging-session-bytes-store';
import { changelogTopicName } from './changelog-topic-name';
import type {
  SessionBytesEntry,
  SessionBytesStore,
  SessionQuery,
} from './segmented-session-bytes.store';
import { findLayer, initStack } from './layer-stack';
import { SessionKeySchema } from './session-key-schema';
import { NOT_SAMPLED, OP, StoreMetrics, type StoreMetricsSnapshot } from './store-metrics';

/** How a {@link MeteredSessionStore} is made; built by `SessionStoreBuilder`. */
export interface MeteredSessionStoreOptions<K, AGG> {
  readonly name: string;
  readonly persistent: boolean;
  readonly metricsScope: string;
  readonly keySerde: Serde<K>;
  readonly aggSerde: Serde<AGG>;
  /** Builds the engine and its layers for one task, unopened. */
  readonly buildStack: (context: StateStoreContext) => SessionBytesStore;
  /** Whether `buildStack` puts a caching layer in the stack. */
  readonly caching?: boolean;
}

/**
 * Receives the sessions a caching session store writes through, typed: the session's windowed
 * key, the new aggregate (`null`: removed), the one before (`undefined` when not known) and the
 * timestamp of the last write.
 */
export type SessionCacheFlushListenerOf<K, AGG> = (
  key: Windowed<K>,
  newValue: AGG | null,
  oldValue: AGG | null | undefined,
  timestamp: number,
) => void;

/**
 * The metered layer of session stores: typed (serdes), counted, and the one that opens the
 * layers below and registers the store for restore (changelog records, keyed by session key,
 * go to the segmented engine's `restoreAll`, which skips expired sessions).
 *
 * Errors: calls before `init` or after `close` throw `StoreClosedError`; the engine throws
 * `InvalidWindowError` for bad times and `UnsupportedStoreOperationError` for synchronous reads
 * it cannot serve (use the `...Async` reads).
 */
export class MeteredSessionStore<K, AGG> implements SessionStore<K, AGG> {
  readonly name: string;
  readonly persistent: boolean;
  private readonly keySerde: Serde<K>;
  private readonly aggSerde: Serde<AGG>;
  private metrics: StoreMetrics;
  private stack: SessionBytesStore | undefined;
  private topic: string;
  private pendingListener:
    { listener: SessionCacheFlushListenerOf<K, AGG>; sendOldValues: boolean } | undefined;

  /** Session aggregates carry no timestamps: queries return them as stored. */
  get timestampedValues(): boolean {
    return false;
  }

  constructor(private readonly options: MeteredSessionStoreOptions<K, AGG>) {
    this.name = options.name;
    this.persistent = options.persistent;
    this.keySerde = options.keySerde;
    this.aggSerde = options.aggSerde;
    this.topic = options.name;
    this.metrics = new StoreMetrics(options.name, options.metricsScope);
  }

  async init(context: StateStoreContext): Promise<void> {
    if (this.stack?.isOpen()) return;
    this.metrics = new StoreMetrics(
      this.name,
      this.options.metricsScope,
      context.metricsLatencySampling ?? 0,
    );
    this.metrics.taskId = context.taskId.toString();
    this.topic = changelogTopicName(context.applicationId, this.name);
    const stack = this.options.buildStack(context);
    const open = (): Promise<void> => initStack(stack, context);
    await open();
    this.stack = stack;
    if (this.pendingListener) {
      this.setFlushListener(this.pendingListener.listener, this.pendingListener.sendOldValues);
    }
    const logging = findLayer(stack, ChangeLoggingSessionBytesStore);
    context.register({
      store: this,
      name: this.name,
      persistent: this.persistent,
      changelog: logging
        ? { topic: logging.changelogTopic, partition: logging.changelogPartition }
        : undefined,
      restoreBatch: (records) => {
        stack.restoreAll(records);
      },
      wipe: async () => {
        await stack.destroy();
        await open();
      },
    });
  }

  isOpen(): boolean {
    return this.stack?.isOpen() ?? false;
  }

  /**
   * Sets the listener of the sessions the cache writes through, typed. Returns false when the
   * store has no caching layer (then every write is final at once: forward it yourself).
   */
  setFlushListener(listener: SessionCacheFlushListenerOf<K, AGG>, sendOldValues: boolean): boolean {
    const stack = this.stack;
    if (!stack) {
      this.pendingListener = { listener, sendOldValues };
      return this.options.caching === true;
    }
    const caching = findLayer(stack, CachingSessionBytesStore);
    if (!caching) return false;
    const topic = this.topic;
    const aggs = this.aggSerde;
    caching.setFlushListener((sessionKey, newValue, oldValue, timestamp) => {
      const { key, start, end } = SessionKeySchema.fromBinary(sessionKey);
      listener(
        new Windowed(this.keySerde.deserialize(key, topic), new SessionWindow(start, end)),
        newValue === null ? null : aggs.deserialize(newValue, topic),
        oldValue === undefined || oldValue === null ? oldValue : aggs.deserialize(oldValue, topic),
        timestamp,
      );
    }, sendOldValues);
    return true;
  }

  put(sessionKey: Windowed<K>, aggregate: AGG | null): void {
    const stack = this.open();
    const mark = this.metrics.start(OP.put);
    const { start, end } = sessionKey.window;
    stack.put(
      this.keySerde.serialize(sessionKey.key, this.topic),
      start,
      end,
      aggregate === null ? null : this.aggSerde.serialize(aggregate, this.topic),
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
    return bytes === undefined ? undefined : this.aggSerde.deserialize(bytes, this.topic);
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
    return bytes === undefined ? undefined : this.aggSerde.deserialize(bytes, this.topic);
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

  approximateNumEntries(): number {
    return this.open().approximateNumEntries();
  }

  async flush(): Promise<void> {
    const stack = this.open();
    this.metrics.add(OP.flush, 1);
    await stack.flush();
  }

  async close(): Promise<void> {
    await this.stack?.close();
  }

  /** A plain snapshot of this store's metrics. */
  metricsSnapshot(): StoreMetricsSnapshot {
    return this.metrics.snapshot();
  }

  private open(): SessionBytesStore {
    const stack = this.stack;
    if (stack === undefined) throw new StoreClosedError(this.name, 'is not initialized');
    return stack;
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
        value: this.aggSerde.deserialize(entry.value, this.topic),
      });
    }
    return result;
  }
}

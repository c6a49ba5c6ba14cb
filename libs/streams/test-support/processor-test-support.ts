import type { ProcessorContext, RecordMetadata } from '../src/processor/processor-context';
import type { Cancellable } from '../src/processor/punctuation';
import type { Record } from '../src/processor/record';
import { TaskId } from '../src/processor/task-id';
import type { Serde } from '../src/serde/serde';
import { InMemoryBytesStore } from '../src/state/internals/in-memory-bytes.store';
import type { MeteredKeyValueStore } from '../src/state/internals/metered/metered-key-value-store';
import { AsyncOnlyBytesStore, testStoreContext, type TestStoreContext } from './store-test-support';
import type { KeyValueBytesStoreSupplier } from '../src/state/key-value-bytes-store-supplier';
import type { KeyValue } from '../src/state/key-value-store';
import { Stores } from '../src/state/stores';
import type { ValueAndTimestamp } from '../src/state/value-and-timestamp';
import { Windowed } from '../src/windowing/windowed';
import type { DslSessionStore, DslWindowStore } from '../src/kstream/internals/dsl-window-stores';

/**
 * A processor context for unit tests of single DSL processors: records what they forward,
 * hands out the stores put in `stores`, and reports the stream time set in `streamTime`.
 */
export class FakeProcessorContext<K = unknown, V = unknown> implements ProcessorContext<K, V> {
  readonly applicationId = 'app';
  readonly taskId = new TaskId(0, 0);
  appConfigs: { readonly [name: string]: unknown } = {};
  readonly forwarded: { record: Record<K, V>; childName?: string }[] = [];
  readonly stores = new Map<string, unknown>();
  streamTime = -1;
  /** Whether the processor has children; `true` by default (like a context without it). */
  children = true;

  /** A context that hands out `stores` by name. */
  static withStores<K, V>(stores: {
    readonly [name: string]: unknown;
  }): FakeProcessorContext<K, V> {
    const context = new FakeProcessorContext<K, V>();
    for (const [name, store] of Object.entries(stores)) context.stores.set(name, store);
    return context;
  }

  hasChildren(): boolean {
    return this.children;
  }

  recordMetadata(): RecordMetadata | undefined {
    return undefined;
  }

  forward<K2 extends K, V2 extends V>(record: Record<K2, V2>, childName?: string): void {
    this.forwarded.push({ record, childName });
  }

  getStateStore<S>(name: string): S {
    if (!this.stores.has(name)) throw new Error(`no store '${name}' in the fake context`);
    return this.stores.get(name) as S;
  }

  schedule(): Cancellable {
    throw new Error('not supported by the fake context');
  }

  commit(): void {}

  currentStreamTimeMs(): number {
    return this.streamTime;
  }

  currentSystemTimeMs(): number {
    return 0;
  }

  /** The forwarded records as plain `{ key, value, timestamp }`, emptying the list. */
  take(): { key: K; value: V; timestamp: number }[] {
    const taken = this.forwarded.map(({ record }) => ({
      key: record.key,
      value: record.value,
      timestamp: record.timestamp,
    }));
    this.forwarded.length = 0;
    return taken;
  }
}

/** An in-memory window store for processor tests; counts prefetch calls. */
export class FakeWindowStore<K, V> implements DslWindowStore<K, V> {
  readonly windows = new Map<string, ValueAndTimestamp<V>>();
  readonly prefetched: { key: K; windowStart: number }[][] = [];

  fetch(key: K, windowStart: number): ValueAndTimestamp<V> | undefined {
    return this.windows.get(`${String(key)}@${windowStart}`);
  }

  put(key: K, value: ValueAndTimestamp<V> | null, windowStart: number): void {
    const id = `${String(key)}@${windowStart}`;
    if (value === null) this.windows.delete(id);
    else this.windows.set(id, value);
  }

  async prefetch(windows: readonly { key: K; windowStart: number }[]): Promise<void> {
    this.prefetched.push([...windows]);
  }
}

/** An in-memory session store for processor tests (sessions of string-like keys). */
export class FakeSessionStore<K, V> implements DslSessionStore<K, V> {
  readonly sessions: KeyValue<Windowed<K>, V>[] = [];

  findSessions(
    key: K,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
  ): Iterable<KeyValue<Windowed<K>, V>> {
    return this.sessions.filter(
      (s) =>
        s.key.key === key &&
        s.key.window.end >= earliestSessionEndTime &&
        s.key.window.start <= latestSessionStartTime,
    );
  }

  put(sessionKey: Windowed<K>, value: V | null): void {
    this.remove(sessionKey);
    if (value !== null) this.sessions.push({ key: sessionKey, value });
  }

  remove(sessionKey: Windowed<K>): void {
    const index = this.sessions.findIndex((s) => s.key.equals(sessionKey));
    if (index >= 0) this.sessions.splice(index, 1);
  }

  /** `[key@start/end=value]` of every session, sorted. */
  dump(): string[] {
    return this.sessions
      .map((s) => `${new Windowed(s.key.key, s.key.window).toString()}=${String(s.value)}`)
      .sort();
  }
}

/**
 * An opened timestamped key-value store whose engine reads asynchronously only (like the
 * `rocksdb` binding), with its engine (counting multi-gets) and store context at hand.
 */
export async function asyncOnlyTimestampedStore<K, V>(
  name: string,
  keySerde: Serde<K>,
  valueSerde: Serde<V>,
  caching: boolean,
): Promise<{
  store: MeteredKeyValueStore<K, ValueAndTimestamp<V>>;
  engine: AsyncOnlyBytesStore;
  storeContext: TestStoreContext;
}> {
  let engine: AsyncOnlyBytesStore | undefined;
  const supplier: KeyValueBytesStoreSupplier = {
    name,
    metricsScope: 'test',
    persistent: false,
    get: () => (engine = new AsyncOnlyBytesStore(new InMemoryBytesStore(name))),
  };
  const builder = Stores.timestampedKeyValueStoreBuilder(supplier, keySerde, valueSerde);
  if (caching) builder.withCachingEnabled();
  const store = builder.build();
  const storeContext = testStoreContext();
  await store.init(storeContext);
  return { store, engine: engine!, storeContext };
}

/**
 * `serde`, counting its deserializations: what a record cache keeping the deserialized
 * aggregates saves shows as fewer of them.
 */
export function countingDeserializations<T>(serde: Serde<T>): {
  serde: Serde<T>;
  counted: { deserializations: number };
} {
  const counted = { deserializations: 0 };
  return {
    serde: {
      serialize: (value, topic) => serde.serialize(value, topic),
      deserialize: (bytes, topic) => {
        counted.deserializations++;
        return serde.deserialize(bytes, topic);
      },
    },
    counted,
  };
}

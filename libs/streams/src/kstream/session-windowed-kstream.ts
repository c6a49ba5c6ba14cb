import { Serdes } from '../serde/serdes';
import type { Aggregator, Initializer, Merger, Reducer } from './functions';
import { KTable, type StreamOfNode } from './ktable';
import type { Materialized } from './materialized';
import type { Named } from './named';
import type { SessionWindows } from './windows/session-windows';
import type { Windowed } from '../windowing/windowed';
import type {
  AggregateResultSpec,
  GroupedStreamAggregateBuilder,
} from './internals/grouped-stream-aggregate-builder';
import {
  sessionAggregateSupplier,
  type SessionAggregation,
} from './internals/kstream-session-window-aggregate.processor';
import { NAMES } from './internals/naming';
import type { StreamNode } from './internals/stream-node';
import { sessionStore, withoutCaching } from './internals/window-store-materializer';
import { EmitStrategy } from './windows/emit-strategy';
import { SessionWindowedSerde } from './windows/session-windowed.serde';

/**
 * A grouped stream windowed by sessions of activity (Kafka Streams'
 * `SessionWindowedKStream`), from `groupByKey().windowedBy(SessionWindows...)`. Aggregations
 * keep one row per key and session in a session store (retention: `Materialized.withRetention`,
 * else gap plus grace) and return a table keyed by `Windowed<K>` with session windows
 * `[first record, last record]`. When a record merges sessions, the merged ones are deleted
 * from the table (downstream sees `null` for them) and the merged session is emitted.
 *
 * Errors: `TopologyError` for a taken name or a retention below gap + grace: fix the call.
 */
export class SessionWindowedKStream<K, V> {
  private strategy = EmitStrategy.onWindowUpdate();

  /** @internal Made by `KGroupedStream.windowedBy`. */
  constructor(
    private readonly node: StreamNode<K, V>,
    private readonly windows: SessionWindows,
    private readonly aggregates: GroupedStreamAggregateBuilder<K, V>,
    /** @internal Makes the streams of the tables it makes. */
    private readonly streamOf: StreamOfNode,
  ) {}

  /**
   * When the aggregations made after this call emit: every update and merge (the default),
   * or with `EmitStrategy.onWindowClose()` each session once, after stream time passed its
   * end plus gap plus grace (the store is then not cached).
   */
  emitStrategy(strategy: EmitStrategy): this {
    this.strategy = strategy;
    return this;
  }

  /** Counts the records per key and session. */
  count(materialized?: Materialized<K, number>, named?: Named): KTable<Windowed<K>, number> {
    return this.doAggregate<number>(
      {
        initializer: () => 0,
        aggregator: (_key, _value, count) => count + 1,
        merger: (_key, a, b) => a + b,
      },
      { prefix: NAMES.AGGREGATE, materialized, named, defaultValueSerde: Serdes.Long() },
    );
  }

  /**
   * Combines the values per key and session with `reducer(aggregate, value)`. As in Kafka
   * Streams, a `null` value is handed to the reducer once the session has an aggregate (a
   * session whose only values are `null` has none, and is not stored).
   */
  reduce(
    reducer: Reducer<V>,
    materialized?: Materialized<K, V>,
    named?: Named,
  ): KTable<Windowed<K>, V> {
    const combine = (a: V | null, b: V | null): V | null => (a === null ? b : reducer(a, b as V));
    return this.doAggregate<V | null>(
      {
        initializer: () => null,
        aggregator: (_key, value, aggregate) => combine(aggregate, value),
        merger: (_key, a, b) => combine(a, b),
      },
      {
        prefix: NAMES.REDUCE,
        materialized: materialized as Materialized<K, V | null> | undefined,
        named,
        defaultValueSerde: this.node.valueSerde,
      },
    ) as KTable<Windowed<K>, V>;
  }

  /**
   * Folds the values per key and session, from `initializer()`; when sessions merge, their
   * aggregates are combined with `merger(key, aggregate1, aggregate2)`.
   */
  aggregate<VA>(
    initializer: Initializer<VA>,
    aggregator: Aggregator<K, V, VA>,
    merger: Merger<K, VA>,
    materialized?: Materialized<K, VA>,
    named?: Named,
  ): KTable<Windowed<K>, VA> {
    return this.doAggregate<VA>(
      { initializer, aggregator, merger },
      { prefix: NAMES.AGGREGATE, materialized, named, defaultValueSerde: undefined },
    );
  }

  private doAggregate<VA>(
    aggregation: SessionAggregation<K, V, VA>,
    result: AggregateResultSpec<K, VA>,
  ): KTable<Windowed<K>, VA> {
    const onClose = this.strategy.type() === 'ON_WINDOW_CLOSE';
    const store = onClose ? withoutCaching(sessionStore(this.windows)) : sessionStore(this.windows);
    const table = this.aggregates.table<Windowed<K>, VA>({
      ...result,
      tableKeySerde: (keySerde) => keySerde && new SessionWindowedSerde(keySerde),
      store: (storeName, keySerde, valueSerde) =>
        store(storeName, result.materialized, keySerde, valueSerde),
      supplier: (storeName) =>
        sessionAggregateSupplier<K, V, VA>(storeName, this.windows, aggregation, onClose),
      windowGraceMs: this.windows.inactivityGap() + this.windows.gracePeriodMs(),
    });
    return new KTable(table, this.streamOf);
  }
}

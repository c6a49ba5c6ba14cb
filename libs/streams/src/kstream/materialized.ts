import type { Serde } from '../serde/serde';
import type { KeyValueBytesStoreSupplier } from '../state/key-value-bytes-store-supplier';
import { StoreLayerSwitches } from '../state/internals/store-layer-switches';
import { requireStoreName } from '../state/stores';

/** Where a materialized store keeps its data. */
export type StoreType = 'ROCKS_DB' | 'IN_MEMORY';

/**
 * How the DSL materializes a store (Kafka Streams' `Materialized`): its name (it becomes
 * queryable under it), serdes, engine, retention, caching and logging. Defaults as in Kafka
 * Streams: RocksDB, caching on, logging on, serdes from the operation (or the defaults).
 *
 * @example
 * Materialized.as<string, OrderStats>('stats-store')
 *   .withKeySerde(Serdes.String())
 *   .withValueSerde(orderStatsSerde)
 *   .withRetention(7 * 24 * 3600 * 1000)
 *   .withCachingEnabled();
 *
 * Errors: `as` throws `RangeError` for an invalid store name, `withRetention` for a negative
 * or non-integer duration: fix the argument.
 */
export class Materialized<K, V> extends StoreLayerSwitches {
  private keySerdeValue: Serde<K> | undefined;
  private valueSerdeValue: Serde<V> | undefined;
  private retention: number | undefined;
  private type: StoreType = 'ROCKS_DB';

  private constructor(
    /** The store name; undefined when the DSL generates one. */
    readonly storeName: string | undefined,
    /** A store supplier given instead of a name (it decides the engine). */
    readonly storeSupplier: KeyValueBytesStoreSupplier | undefined,
  ) {
    super(true);
  }

  /** Materializes under `name` (queryable), or with the engine `supplier` makes. */
  static as<K, V>(nameOrSupplier: string | KeyValueBytesStoreSupplier): Materialized<K, V> {
    if (typeof nameOrSupplier === 'string') {
      requireStoreName(nameOrSupplier);
      return new Materialized<K, V>(nameOrSupplier, undefined);
    }
    return new Materialized<K, V>(nameOrSupplier.name, nameOrSupplier);
  }

  /** Materializes with these serdes under a generated (not queryable) name. */
  static with<K, V>(keySerde?: Serde<K>, valueSerde?: Serde<V>): Materialized<K, V> {
    const materialized = new Materialized<K, V>(undefined, undefined);
    materialized.keySerdeValue = keySerde;
    materialized.valueSerdeValue = valueSerde;
    return materialized;
  }

  withKeySerde(serde: Serde<K>): this {
    this.keySerdeValue = serde;
    return this;
  }

  withValueSerde(serde: Serde<V>): this {
    this.valueSerdeValue = serde;
    return this;
  }

  /**
   * How long a windowed store keeps windows (and its changelog keeps records: retention
   * plus one day), in ms. Ignored by plain key-value stores.
   */
  withRetention(retentionMs: number): this {
    if (!Number.isInteger(retentionMs) || retentionMs < 0) {
      throw new RangeError(`retention must be a non-negative integer of ms, got ${retentionMs}`);
    }
    this.retention = retentionMs;
    return this;
  }

  /** RocksDB (default) or in-memory. Ignored when a store supplier was given. */
  withStoreType(type: StoreType): this {
    this.type = type;
    return this;
  }

  get keySerde(): Serde<K> | undefined {
    return this.keySerdeValue;
  }

  get valueSerde(): Serde<V> | undefined {
    return this.valueSerdeValue;
  }

  get retentionMs(): number | undefined {
    return this.retention;
  }

  get storeType(): StoreType {
    return this.type;
  }
}

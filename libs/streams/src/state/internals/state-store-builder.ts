import type { StateStore } from '../../processor/state-store';
import type { StateStoreContext } from '../../processor/state-store-context';
import type { StoreBuilder } from '../../processor/store-builder';
import type { Serde } from '../../serde/serde';
import type { MeteredStoreOptions } from './metered/metered-store';
import type { StoreLayer } from './layers/store-layer';
import { StoreLayerSwitches } from './store-layer-switches';
import { layersOver, type StoreLayers } from './store-stack';

/** What every store supplier says about its engine. */
export interface StoreSupplier {
  readonly name: string;
  readonly metricsScope: string;
  readonly persistent: boolean;
}

/** What a builder builds its stores from. */
export interface StoreDefinition<K, V> {
  readonly supplier: StoreSupplier;
  readonly keySerde: Serde<K>;
  readonly valueSerde: Serde<V>;
  /** Values are `ValueAndTimestamp` bytes (set by the timestamped builders). */
  readonly timestampedValues: boolean;
  /**
   * The unopened engine layer of one task's store, with the engines below it (see
   * `keyValueEngineLayer` and `segmentedEngineLayer` in `store-stack.ts`).
   */
  readonly engineAt: (context: StateStoreContext) => StoreLayer;
  /** The changelog kind, and the retention of window and session stores. */
  readonly changelogKind: 'key-value' | 'window' | 'session';
  readonly retentionMs?: number;
  /** False for stores that are never cached (those retaining duplicates, as Kafka Streams). */
  readonly cacheable?: boolean;
}

/**
 * The one builder of every store kind (Kafka Streams' `KeyValueStoreBuilder`,
 * `WindowStoreBuilder`, `SessionStoreBuilder`): the caching and logging switches with the
 * changelog's topic config, then `build()` makes the kind's metered store over a new stack, laid
 * as `store-stack.ts` says (every layer, in the order it applies). Logging is on by default, caching off (the DSL turns it on unless `Materialized` says
 * otherwise). Window and session builders say so (`changelogKind`) and give their retention,
 * which decide the changelog's cleanup policy and `retention.ms` (retention + 1 day).
 */
export class StateStoreBuilder<T extends StateStore>
  extends StoreLayerSwitches
  implements StoreBuilder<T>
{
  private constructor(
    /** The engine's supplier (`Stores.persistentKeyValueStore(...)`, ...). */
    readonly supplier: StoreSupplier,
    readonly changelogKind: 'key-value' | 'window' | 'session',
    /** The store's retention (window and session stores), for its changelog's `retention.ms`. */
    readonly retentionMs: number | undefined,
    private readonly make: (layers: StoreLayers) => T,
  ) {
    super(false);
  }

  /** A builder of `definition`'s stores; `create` makes the kind's metered store (its facade). */
  static of<T extends StateStore, K, V>(
    definition: StoreDefinition<K, V>,
    create: (options: MeteredStoreOptions<K, V>) => T,
  ): StateStoreBuilder<T> {
    const { supplier, keySerde, valueSerde, timestampedValues, engineAt } = definition;
    const make = ({ caching: asked, logging, topicConfig }: StoreLayers): T => {
      const caching = asked && definition.cacheable !== false;
      const layers = { caching, logging, topicConfig };
      return create({
        ...{ name: supplier.name, metricsScope: supplier.metricsScope, keySerde, valueSerde },
        ...{ timestampedValues, caching },
        buildStack: (context) => layersOver(engineAt(context), layers, timestampedValues),
      });
    };
    return new StateStoreBuilder(supplier, definition.changelogKind, definition.retentionMs, make);
  }

  get name(): string {
    return this.supplier.name;
  }

  /** Extra configs of the changelog topic (`StoreBuilder`'s name for `topicConfig`). */
  get logConfig(): Readonly<Record<string, string>> {
    return this.topicConfig;
  }

  build(): T {
    return this.make(this.layers());
  }
}

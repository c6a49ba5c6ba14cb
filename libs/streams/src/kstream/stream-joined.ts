import type { Serde } from '../serde/serde';
import type { WindowBytesStoreSupplier } from '../state/window-bytes-store-supplier';
import type { InferredSerde } from './serde-inference';
import { validateName } from './named';
import { requireStoreName } from '../state/stores';

/**
 * Options of a stream-stream join (Kafka Streams' `StreamJoined`): the serdes of the join's
 * stores and repartition topics, the join's name (it names the processors, `<name>-this-join`,
 * `<name>-other-join`..., and the repartition topics `<name>-left-repartition` and
 * `<name>-right-repartition`), the base name of its stores (`<storeName>-this-join-store`...,
 * and so of their changelogs), store suppliers of your own, and the changelogs' logging.
 *
 * Serdes not given are the joined streams' own, else the application's defaults (Kafka
 * Streams takes the defaults only: naming the serdes here works with both).
 *
 * @example
 * left.join(right, (l, r) => ({ l, r }), JoinWindows.ofTimeDifferenceWithNoGrace(60_000),
 *   StreamJoined.with(Serdes.String(), orderSerde, paymentSerde).withStoreName('order-payment'));
 *
 * Errors: `as`, `withName` and `withStoreName` throw `TopologyError` (or `RangeError` for a
 * store name) for an illegal name: choose another.
 */
export class StreamJoined<K, V1, V2> {
  private constructor(
    readonly keySerde: Serde<K> | undefined,
    readonly valueSerde: Serde<V1> | undefined,
    readonly otherValueSerde: Serde<V2> | undefined,
    readonly name: string | undefined,
    readonly storeName: string | undefined,
    readonly thisStoreSupplier: WindowBytesStoreSupplier | undefined,
    readonly otherStoreSupplier: WindowBytesStoreSupplier | undefined,
    readonly loggingEnabled: boolean,
    readonly topicConfig: Readonly<Record<string, string>>,
  ) {}

  /** The serdes of the key, this stream's values and the other stream's values. */
  static with<K, V1, V2>(
    keySerde?: InferredSerde<K>,
    valueSerde?: InferredSerde<V1>,
    otherValueSerde?: InferredSerde<V2>,
  ): StreamJoined<K, V1, V2> {
    return new StreamJoined(
      keySerde,
      valueSerde,
      otherValueSerde,
      undefined,
      undefined,
      undefined,
      undefined,
      true,
      {},
    );
  }

  /** Store suppliers of your own (window stores retaining duplicates, sized as the join). */
  static withStoreSuppliers<K, V1, V2>(
    thisStoreSupplier: WindowBytesStoreSupplier,
    otherStoreSupplier: WindowBytesStoreSupplier,
  ): StreamJoined<K, V1, V2> {
    return StreamJoined.with<K, V1, V2>()
      .withThisStoreSupplier(thisStoreSupplier)
      .withOtherStoreSupplier(otherStoreSupplier);
  }

  /**
   * The base name of the join's stores (and so of their changelog topics).
   *
   * @throws RangeError for an invalid store name: choose another.
   */
  static as<K, V1, V2>(storeName: string): StreamJoined<K, V1, V2> {
    return StreamJoined.with<K, V1, V2>().withStoreName(storeName);
  }

  /** @throws TopologyError for an illegal name: choose another. */
  withName(name: string): StreamJoined<K, V1, V2> {
    return this.copy({ name: validateName(name) });
  }

  /** @throws RangeError for an invalid store name: choose another. */
  withStoreName(storeName: string): StreamJoined<K, V1, V2> {
    requireStoreName(storeName);
    return this.copy({ storeName });
  }

  withKeySerde(keySerde: InferredSerde<K>): StreamJoined<K, V1, V2> {
    return this.copy({ keySerde });
  }

  withValueSerde(valueSerde: InferredSerde<V1>): StreamJoined<K, V1, V2> {
    return this.copy({ valueSerde });
  }

  withOtherValueSerde(otherValueSerde: InferredSerde<V2>): StreamJoined<K, V1, V2> {
    return this.copy({ otherValueSerde });
  }

  withThisStoreSupplier(supplier: WindowBytesStoreSupplier): StreamJoined<K, V1, V2> {
    return this.copy({ thisStoreSupplier: supplier });
  }

  withOtherStoreSupplier(supplier: WindowBytesStoreSupplier): StreamJoined<K, V1, V2> {
    return this.copy({ otherStoreSupplier: supplier });
  }

  /** Changelogs for the join's stores (the default), created with `topicConfig` on top. */
  withLoggingEnabled(topicConfig: Readonly<Record<string, string>> = {}): StreamJoined<K, V1, V2> {
    return this.copy({ loggingEnabled: true, topicConfig: { ...topicConfig } });
  }

  /** No changelogs: the join's stores start empty after a restart or a move. */
  withLoggingDisabled(): StreamJoined<K, V1, V2> {
    return this.copy({ loggingEnabled: false, topicConfig: {} });
  }

  private copy(changes: Partial<StreamJoinedFields<K, V1, V2>>): StreamJoined<K, V1, V2> {
    const f: StreamJoinedFields<K, V1, V2> = { ...this, ...changes };
    return new StreamJoined(
      f.keySerde,
      f.valueSerde,
      f.otherValueSerde,
      f.name,
      f.storeName,
      f.thisStoreSupplier,
      f.otherStoreSupplier,
      f.loggingEnabled,
      f.topicConfig,
    );
  }
}

type StreamJoinedFields<K, V1, V2> = {
  -readonly [
    F in keyof StreamJoined<K, V1, V2> as StreamJoined<K, V1, V2>[F] extends (
      ...args: never[]
    ) => unknown
      ? never
      : F
  ]: StreamJoined<K, V1, V2>[F];
};

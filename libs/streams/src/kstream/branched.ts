import type { KStream } from './kstream';
import { validateName } from './named';

/**
 * How one branch of `KStream.split()` is named and handled (Kafka Streams' `Branched`): a
 * name (the branch's key in the result map is `<split name><branch name>`), and optionally a
 * function that transforms the branch (its result is put in the map instead) or a consumer
 * that terminates it (the branch is then left out of the map).
 */
export class Branched<K, V> {
  private constructor(
    readonly name: string | undefined,
    readonly chainFunction: ((branch: KStream<K, V>) => KStream<K, V> | undefined) | undefined,
    readonly chainConsumer: ((branch: KStream<K, V>) => void) | undefined,
  ) {}

  /** @throws TopologyError for an illegal name: choose another. */
  static as<K, V>(name: string): Branched<K, V> {
    return new Branched<K, V>(validateName(name, 'branch name'), undefined, undefined);
  }

  /**
   * Transforms the branch; the map holds the returned stream (nothing when it returns
   * `undefined`).
   *
   * @throws TopologyError for an illegal name: choose another.
   */
  static withFunction<K, V>(
    chain: (branch: KStream<K, V>) => KStream<K, V> | undefined,
    name?: string,
  ): Branched<K, V> {
    return new Branched(name === undefined ? undefined : validateName(name), chain, undefined);
  }

  /**
   * Consumes the branch (for example `branch => branch.to('topic')`); it is not in the map.
   *
   * @throws TopologyError for an illegal name: choose another.
   */
  static withConsumer<K, V>(chain: (branch: KStream<K, V>) => void, name?: string): Branched<K, V> {
    return new Branched(name === undefined ? undefined : validateName(name), undefined, chain);
  }
}

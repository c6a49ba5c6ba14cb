import { TopologyError } from '../../errors/topology.error';
import type { Serde } from '../../serde/serde';
import type { InternalStreamsBuilder } from './internal-streams-builder';

/**
 * What every KStream, KTable and grouped stream knows about where it sits in the topology:
 * the builder, the node that produces it, its serdes (undefined: the application defaults)
 * and the source topics feeding it (for co-partitioning). Internal.
 */
export interface StreamNode<K, V> {
  readonly builder: InternalStreamsBuilder;
  readonly name: string;
  readonly keySerde: Serde<K> | undefined;
  readonly valueSerde: Serde<V> | undefined;
  readonly sourceTopics: ReadonlySet<string>;
}

/**
 * Checks that two streams or tables come from the same `StreamsBuilder`.
 *
 * @throws TopologyError otherwise: build both with one builder.
 */
export function requireSameBuilder(
  a: StreamNode<unknown, unknown>,
  b: StreamNode<unknown, unknown>,
  operation: string,
): void {
  if (a.builder !== b.builder) {
    throw new TopologyError(
      `${operation}: '${a.name}' and '${b.name}' come from different StreamsBuilders; build both with one`,
    );
  }
}

/** The union of two source topic sets. */
export function unionTopics(a: ReadonlySet<string>, b: ReadonlySet<string>): ReadonlySet<string> {
  return new Set([...a, ...b]);
}

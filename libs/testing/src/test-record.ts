import type { Headers } from '@nest-streams/streams';

/** A record read from an output topic of the {@link TopologyTestDriver}. */
export interface TestRecord<K, V> {
  readonly key: K;
  readonly value: V;
  readonly timestamp: number;
  readonly headers: Headers;
  readonly partition: number;
  readonly offset: number;
}

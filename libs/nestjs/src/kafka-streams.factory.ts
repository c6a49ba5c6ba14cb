import type {
  KafkaStreams,
  KafkaStreamsOptions,
  StreamsConfig,
  Topology,
} from '@nest-streams/streams';
import type { StreamsStartMode } from './streams-module-options.interface';

/**
 * Injection token of a {@link KafkaStreamsFactory}: when a global module provides one (as
 * `StreamsTestingModule` of `@nest-streams/testing` does), `StreamsModule` creates its client
 * with it instead of `new KafkaStreams(...)`. A registered symbol, so a package can provide it
 * without importing this one.
 */
export const KAFKA_STREAMS_FACTORY: unique symbol = Symbol.for(
  'nest-streams:kafka-streams-factory',
);

/** How `StreamsModule` creates and starts its client, when not with a broker. */
export interface KafkaStreamsFactory {
  /** The client of the application's topology, with the module's resolved settings. */
  create(topology: Topology, config: StreamsConfig, options: KafkaStreamsOptions): KafkaStreams;
  /** A start mode that replaces the module's `client.start` (unless that is `manual`). */
  readonly start?: Exclude<StreamsStartMode, 'manual'>;
  /** No instance-to-instance query server: the client is alone (no other instance to ask). */
  readonly standalone?: boolean;
}

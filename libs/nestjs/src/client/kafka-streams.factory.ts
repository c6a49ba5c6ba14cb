import type {
  KafkaStreams,
  KafkaStreamsOptions,
  StreamsConfig,
  Topology,
} from '@nest-streams/streams';
import type { StreamsStartMode } from '../settings/streams-module-options.interface';

/**
 * How `StreamsModule` creates and starts its client, when not with a broker: provide one under
 * `KAFKA_STREAMS_FACTORY` in a global module.
 */
export interface KafkaStreamsFactory {
  /** The client of the application's topology, with the module's resolved settings. */
  create(topology: Topology, config: StreamsConfig, options: KafkaStreamsOptions): KafkaStreams;
  /** A start mode that replaces the module's `client.start` (unless that is `manual`). */
  readonly start?: Exclude<StreamsStartMode, 'manual'>;
  /** No instance-to-instance query server: the client is alone (no other instance to ask). */
  readonly standalone?: boolean;
}

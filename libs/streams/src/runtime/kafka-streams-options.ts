import type { KafkaStreamsState, StreamThreadExceptionResponse } from './kafka-streams-state';
import type { StreamsLogger } from '../logging/logger';

/** Called on every state change. */
export type StateListener = (newState: KafkaStreamsState, oldState: KafkaStreamsState) => void;
/** Decides what an uncaught processing error does. */
export type StreamsUncaughtExceptionHandler = (error: Error) => StreamThreadExceptionResponse;

/** Options besides the Kafka Streams settings. */
export interface KafkaStreamsOptions {
  /**
   * Where the client and the Kafka client log (see {@link StreamsLogger}); default
   * {@link consoleStreamsLogger}. Levels it lacks are completed: `error` goes to `warn`,
   * `info` and `debug` are dropped (`{ warn: () => undefined }` silences all but errors...
   * which then go nowhere either). The Kafka client logs through it at `kafka.logLevel`
   * (kafkajs' levels; default WARN) unless `kafka.logCreator` is set.
   */
  logger?: Partial<StreamsLogger>;
}

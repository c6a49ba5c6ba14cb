import { ClusterFaultTimeoutError } from '../errors/cluster-fault-timeout.error';
import { StreamThreadExceptionResponse, type KafkaStreamsState } from './kafka-streams-state';
import type { StreamsLogger } from '../logging/logger';

/** Called on every state change. */
export type StateListener = (newState: KafkaStreamsState, oldState: KafkaStreamsState) => void;
/** Decides what an uncaught processing error does. */
export type StreamsUncaughtExceptionHandler = (error: Error) => StreamThreadExceptionResponse;

/**
 * The handler a client has until `setUncaughtExceptionHandler` (the Nest module's
 * `uncaughtExceptionHandler`) replaces it: `REPLACE_THREAD` for a transient cluster fault that
 * outlasted its bound (`ClusterFaultTimeoutError`, itself or as a cause: the client keeps
 * running), `SHUTDOWN_CLIENT` for anything else (state ERROR). A handler of your own can end
 * with it for the errors it does not decide about.
 */
export const defaultUncaughtExceptionHandler: StreamsUncaughtExceptionHandler = (error) => {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 8; depth++) {
    if (e instanceof ClusterFaultTimeoutError) return StreamThreadExceptionResponse.REPLACE_THREAD;
    e = e.cause;
  }
  return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
};

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

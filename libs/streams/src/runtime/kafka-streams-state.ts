/**
 * The client's states, as Kafka Streams': CREATED -> REBALANCING <-> RUNNING ->
 * PENDING_SHUTDOWN -> NOT_RUNNING, and PENDING_ERROR -> ERROR. RUNNING means every active task
 * of the current assignment is restored and processing.
 */
export enum KafkaStreamsState {
  CREATED = 'CREATED',
  REBALANCING = 'REBALANCING',
  RUNNING = 'RUNNING',
  PENDING_SHUTDOWN = 'PENDING_SHUTDOWN',
  NOT_RUNNING = 'NOT_RUNNING',
  PENDING_ERROR = 'PENDING_ERROR',
  ERROR = 'ERROR',
}

const TRANSITIONS: Record<KafkaStreamsState, readonly KafkaStreamsState[]> = {
  CREATED: [
    KafkaStreamsState.REBALANCING,
    KafkaStreamsState.PENDING_SHUTDOWN,
    KafkaStreamsState.PENDING_ERROR,
  ],
  REBALANCING: [
    KafkaStreamsState.RUNNING,
    KafkaStreamsState.REBALANCING,
    KafkaStreamsState.PENDING_SHUTDOWN,
    KafkaStreamsState.PENDING_ERROR,
  ],
  RUNNING: [
    KafkaStreamsState.REBALANCING,
    KafkaStreamsState.PENDING_SHUTDOWN,
    KafkaStreamsState.PENDING_ERROR,
  ],
  PENDING_SHUTDOWN: [KafkaStreamsState.NOT_RUNNING],
  NOT_RUNNING: [],
  PENDING_ERROR: [KafkaStreamsState.ERROR],
  ERROR: [KafkaStreamsState.PENDING_SHUTDOWN],
};

/** Whether `from -> to` is a legal transition. */
export function isValidTransition(from: KafkaStreamsState, to: KafkaStreamsState): boolean {
  return TRANSITIONS[from].includes(to);
}

/** What an uncaught processing error does (`StreamsUncaughtExceptionHandler`). */
export enum StreamThreadExceptionResponse {
  /** Close the failed processing loop (dirty) and start a new one; the client keeps running. */
  REPLACE_THREAD = 'REPLACE_THREAD',
  /** Stop this client: state goes PENDING_ERROR -> ERROR. */
  SHUTDOWN_CLIENT = 'SHUTDOWN_CLIENT',
  /** Stop this client and ask every instance of the application to stop (via the group). */
  SHUTDOWN_APPLICATION = 'SHUTDOWN_APPLICATION',
}

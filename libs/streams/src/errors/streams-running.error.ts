import { StreamsError } from './streams.error';

/**
 * An operation that needs a stopped client was called on a started one (`KafkaStreams.cleanUp()`
 * while it runs, as Kafka Streams' `IllegalStateException`). What to do: call it before
 * `start()` or after `close()` resolved. Not retriable as it is.
 */
export class StreamsRunningError extends StreamsError.coded('STREAMS_RUNNING', false) {
  constructor(
    readonly operation: string,
    readonly state: string,
  ) {
    super(
      `${operation} needs a client that is not running (state ${state}): call it before start() or after close()`,
    );
  }
}

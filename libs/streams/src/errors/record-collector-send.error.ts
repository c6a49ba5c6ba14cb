import { StreamsError } from './streams.error';

/**
 * A record (a changelog record, or an output record) could not be written to Kafka. Raised by
 * the record collector's next `flush` (or `send`) after the failed background send.
 *
 * What to do: the task's state may be ahead of its changelog: close the task dirty (no
 * checkpoint), so its stores restore from the changelog when it is reopened, then retry.
 */
export class RecordCollectorSendError extends StreamsError.coded('RECORD_SEND_FAILED', true) {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

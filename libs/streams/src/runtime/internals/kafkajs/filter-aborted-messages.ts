import { withoutAborted, type AbortedTransaction } from '../read-committed-filter';

/** A message as kafkajs' record batch decoder returns it (what the filter reads). */
export interface KafkajsTransactionalMessage {
  readonly offset: string;
  readonly key?: Buffer | null;
  readonly isControlRecord?: boolean;
  readonly batchContext: { readonly producerId: string; readonly inTransaction: boolean };
}

/** The control record key of an abort marker: version 0, type 0 (a commit marker is type 1). */
const ABORT_MARKER_KEY = Buffer.from([0, 0, 0, 0]);

/** Whether a kafkajs message is an abort marker. */
export function isAbortMarker(message: KafkajsTransactionalMessage): boolean {
  return (
    message.isControlRecord === true &&
    message.key !== null &&
    message.key !== undefined &&
    ABORT_MARKER_KEY.equals(message.key)
  );
}

/**
 * kafkajs 2.2.4's `src/consumer/filterAbortedMessages.js`, correct: its original makes at most
 * one aborted transaction take effect per message, so a fetch that starts after two producers'
 * aborted transactions began returns the second producer's aborted records to a read_committed
 * consumer. Like the original it keeps control records (kafkajs' `Batch` drops them next).
 */
export function filterAbortedMessages<M extends KafkajsTransactionalMessage>({
  messages,
  abortedTransactions,
}: {
  messages: readonly M[];
  abortedTransactions?: readonly AbortedTransaction[];
}): M[] {
  return withoutAborted(
    messages,
    abortedTransactions,
    (m) => ({
      offset: m.offset,
      inTransaction: m.batchContext.inTransaction,
      isControlRecord: m.isControlRecord === true,
      isAbortMarker: isAbortMarker(m),
      producerId: m.batchContext.producerId,
    }),
    true,
  );
}

import { withoutAborted, type AbortedTransaction } from '../wire-format/read-committed-filter';

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
 * The messages of one fetched partition without those of aborted transactions, as Java's
 * fetcher decides them; control records are kept (kafkajs' `Batch` drops them next, after
 * taking the batch's last offset from them).
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

/** A fetched partition as kafkajs' Fetch response decoder returns it. */
interface FetchedPartitionData {
  abortedTransactions?: readonly AbortedTransaction[];
  messages: readonly KafkajsTransactionalMessage[];
}

/** kafkajs' `Broker`, as far as its `fetch` goes. */
export interface FetchingBroker {
  fetch(request: unknown): Promise<{
    responses: readonly { partitions: readonly FetchedPartitionData[] }[];
  }>;
}

/**
 * Makes kafkajs' `Broker#fetch` answer read_committed fetches with the aborted transactions'
 * records already removed (and no aborted transaction left listed), so kafkajs' own filter
 * has nothing to do. That filter (`src/consumer/filterAbortedMessages.js`) is wrong twice: it
 * takes the aborted transactions in the order the broker lists them (by when they ended, not
 * by first offset), and makes at most one take effect per record; either way records of
 * aborted transactions reach a read_committed consumer (processing, restore and standby
 * reads alike). Patched on the prototype, so it holds whatever loaded kafkajs first.
 */
export function installCommittedFetch(brokerClass: { prototype: FetchingBroker }): void {
  const original = brokerClass.prototype.fetch;
  if ((original as { committedOnly?: boolean }).committedOnly) return;
  const fetch = async function (this: FetchingBroker, request: unknown) {
    const response = await original.call(this, request);
    for (const topic of response.responses) {
      for (const partition of topic.partitions) {
        if (!partition.abortedTransactions?.length) continue;
        partition.messages = filterAbortedMessages(partition);
        partition.abortedTransactions = [];
      }
    }
    return response;
  };
  brokerClass.prototype.fetch = Object.assign(fetch, { committedOnly: true });
}

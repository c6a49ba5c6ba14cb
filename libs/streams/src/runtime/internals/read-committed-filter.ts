/** One aborted transaction a fetch response lists: its producer and first offset. */
export interface AbortedTransaction {
  readonly producerId: string;
  readonly firstOffset: string | number;
}

/** What the filter needs of one fetched record. */
export interface TransactionalRecord {
  readonly offset: string;
  /** The record's batch is transactional. */
  readonly inTransaction: boolean;
  readonly isControlRecord: boolean;
  /** For a control record: an abort marker (control type 0), not a commit marker. */
  readonly isAbortMarker: boolean;
  readonly producerId: string;
}

/**
 * The records a read_committed consumer may see, as Java's fetcher decides them: a fetch
 * response lists the aborted transactions that overlap it (producer id, first offset); walking
 * the records in offset order, a producer's transaction becomes aborted at its first offset and
 * stays so until that producer's abort marker; its transactional records in between are
 * dropped. Control records (markers) are dropped too.
 *
 * Unlike kafkajs' own filter, every aborted transaction whose first offset has been reached
 * takes effect at once (kafkajs takes one per record, so a fetch starting past the first
 * offsets of two producers' aborted transactions returns records of the second), and the list
 * is sorted first (brokers do not promise an order).
 */
export function committedRecords<R extends TransactionalRecord>(
  records: readonly R[],
  aborted: readonly AbortedTransaction[] | undefined,
): R[] {
  return withoutAborted(records, aborted, (r) => r, false);
}

/**
 * {@link committedRecords} over records of any shape (`view` reads what the filter needs),
 * keeping the control records when `keepControlRecords` (kafkajs drops them itself later).
 */
export function withoutAborted<R>(
  records: readonly R[],
  aborted: readonly AbortedTransaction[] | undefined,
  view: (record: R) => TransactionalRecord,
  keepControlRecords: boolean,
): R[] {
  if (aborted === undefined || aborted.length === 0) {
    return keepControlRecords ? (records as R[]) : records.filter((r) => !view(r).isControlRecord);
  }
  const pending = aborted
    .map((a) => ({ producerId: a.producerId, firstOffset: BigInt(a.firstOffset) }))
    .sort((a, b) => (a.firstOffset < b.firstOffset ? -1 : a.firstOffset > b.firstOffset ? 1 : 0));
  const abortedProducers = new Set<string>();
  let next = 0;
  const kept: R[] = [];
  for (const record of records) {
    const r = view(record);
    const offset = BigInt(r.offset);
    while (next < pending.length && pending[next].firstOffset <= offset) {
      abortedProducers.add(pending[next++].producerId);
    }
    if (r.isControlRecord) {
      if (r.isAbortMarker) abortedProducers.delete(r.producerId);
      if (keepControlRecords) kept.push(record);
      continue;
    }
    if (r.inTransaction && abortedProducers.has(r.producerId)) continue;
    kept.push(record);
  }
  return kept;
}

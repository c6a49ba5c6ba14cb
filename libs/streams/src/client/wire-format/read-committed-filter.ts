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
  const state = new AbortedTransactions(aborted);
  const kept: R[] = [];
  for (const record of records) {
    const r = view(record);
    state.reach(Number(r.offset));
    if (r.isControlRecord) {
      if (r.isAbortMarker) state.end(r.producerId);
      if (keepControlRecords) kept.push(record);
      continue;
    }
    if (r.inTransaction && state.isAborted(r.producerId)) continue;
    kept.push(record);
  }
  return kept;
}

/**
 * Java's fetcher state over one fetched partition, walked in offset order: the aborted
 * transactions the response listed, sorted by first offset; a producer's transaction is
 * aborted from its first offset until that producer's abort marker.
 */
export class AbortedTransactions {
  private readonly pending: readonly { producerId: string; firstOffset: number }[];
  private next = 0;
  private readonly producers = new Set<string>();

  constructor(aborted: readonly AbortedTransaction[] | undefined) {
    this.pending = (aborted ?? [])
      .map((a) => ({ producerId: a.producerId, firstOffset: Number(a.firstOffset) }))
      .sort((a, b) => a.firstOffset - b.firstOffset);
  }

  /** Every aborted transaction whose first offset is at or before `offset` takes effect. */
  reach(offset: number): void {
    const pending = this.pending;
    while (this.next < pending.length && pending[this.next].firstOffset <= offset) {
      this.producers.add(pending[this.next++].producerId);
    }
  }

  /** Whether `producerId`'s transactional records are aborted at the offset reached. */
  isAborted(producerId: string): boolean {
    return this.producers.size > 0 && this.producers.has(producerId);
  }

  /** `producerId`'s abort marker: its aborted transaction ends there. */
  end(producerId: string): void {
    this.producers.delete(producerId);
  }
}

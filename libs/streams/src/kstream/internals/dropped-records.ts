import type { DroppedRecordReason } from '../../processor/processor-context';

/** Why a DSL processor skipped a record (Kafka Streams' `dropped-records` reasons). */
export type DropReason = DroppedRecordReason;

/**
 * Counts the records a DSL processor skipped, by reason (Kafka Streams' `dropped-records`
 * sensor), and in the task's metric once attached to the processor's context. Each processor
 * instance owns one; read it with {@link DroppedRecords.total}.
 */
export class DroppedRecords {
  private readonly counts = new Map<DropReason, number>();
  private task: { recordDropped?(reason?: DropReason): void } | undefined;

  /** Also counts every drop in the task's `dropped-records` metric (call from `init`). */
  attach(context: { recordDropped?(reason?: DropReason): void }): void {
    this.task = context;
  }

  record(reason: DropReason): void {
    this.counts.set(reason, (this.counts.get(reason) ?? 0) + 1);
    this.task?.recordDropped?.(reason);
  }

  /** Whether `key` is null or undefined; if so, the record is counted as dropped (`null-key`). */
  nullKey(key: unknown): boolean {
    if (key !== null && key !== undefined) return false;
    this.record('null-key');
    return true;
  }

  /** Whether `value` is null or undefined; if so, the record is counted as dropped (`null-value`). */
  nullValue(value: unknown): boolean {
    if (value !== null && value !== undefined) return false;
    this.record('null-value');
    return true;
  }

  /** Dropped records for `reason`, or for every reason when omitted. */
  total(reason?: DropReason): number {
    if (reason !== undefined) return this.counts.get(reason) ?? 0;
    let sum = 0;
    for (const n of this.counts.values()) sum += n;
    return sum;
  }
}

/** The distinct non-null keys of `records`, in first-seen order, for one multi-get. */
export function distinctKeys<K>(records: readonly { readonly key: K }[]): K[] {
  const seen = new Set<K>();
  for (const record of records) {
    const key = record.key;
    if (key !== null && key !== undefined) seen.add(key);
  }
  return [...seen];
}

import { CorruptRecordBatchError } from '../../../errors/corrupt-record-batch.error';

/**
 * How many fetches may find the same record batch corrupt before a changelog read gives up on
 * it: a fault on the way (the network, a broker's memory) does not repeat, so a batch corrupt
 * three times is corrupt in the partition's log, and fetching it again changes nothing.
 */
export const CORRUPT_BATCH_FETCHES = 3;

/**
 * Counts, per record batch (partition and base offset), the fetches that failed with a
 * {@link CorruptRecordBatchError}, for a reader that fetches again after one.
 */
export class CorruptBatchFetches {
  private readonly counts = new Map<string, number>();

  /**
   * Counts one more failed fetch when `error` is a corrupt batch: how many fetches found that
   * batch corrupt so far (0 for any other error).
   */
  count(error: unknown): number {
    if (!(error instanceof CorruptRecordBatchError)) return 0;
    const key = `${error.topic}:${error.partition}:${error.baseOffset}`;
    const fetches = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, fetches);
    return fetches;
  }
}

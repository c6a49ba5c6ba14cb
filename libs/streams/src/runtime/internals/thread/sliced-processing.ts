import type { ConsumedRecord } from '../../../client/consumed-record';
import type { PreparedBatch } from '../task/prepared-batch';
import type { StreamTask } from '../task/stream-task';

/** Records processed between two commit checks (Kafka Streams' `max.poll.records` is 1000). */
export const MAX_RECORDS_PER_SLICE = 1000;

/**
 * Processes a fetched batch in slices of {@link MAX_RECORDS_PER_SLICE} (a fetch can hold tens of
 * thousands of records; commits keep their interval, 100 ms under exactly-once), calling
 * `afterSlice` after each (where the stream thread commits when due). Each slice's prefetch
 * reads RocksDB on its pool while the slice before runs. Resolves once no read is in flight,
 * also when a slice or `afterSlice` failed (then with that error): the task may close next.
 */
export async function processInSlices(
  task: Pick<StreamTask, 'prepare' | 'run'>,
  records: readonly ConsumedRecord[],
  afterSlice: () => Promise<void>,
): Promise<void> {
  const slice = (from: number): PreparedBatch | undefined =>
    from < records.length
      ? task.prepare(records.slice(from, from + MAX_RECORDS_PER_SLICE))
      : undefined;
  let next = slice(0);
  try {
    for (let from = 0; next !== undefined; from += MAX_RECORDS_PER_SLICE) {
      const current = next;
      await current.loaded;
      next = undefined; // a failed prepare leaves nothing in flight
      next = slice(from + MAX_RECORDS_PER_SLICE);
      task.run(current);
      await afterSlice();
    }
  } finally {
    await next?.loaded.catch(() => undefined);
  }
}

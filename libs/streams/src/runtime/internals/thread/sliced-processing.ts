import type { ConsumedRecord } from '../../../client/consumed-record';
import type { PreparedBatch } from '../task/prepared-batch';
import type { StreamTask } from '../task/stream-task';

/** Records processed between two commit checks (Kafka Streams' `max.poll.records` is 1000). */
export const MAX_RECORDS_PER_SLICE = 1000;

/** The next slice of at most {@link MAX_RECORDS_PER_SLICE} records to process; empty when done. */
export type NextSlice = () => readonly ConsumedRecord[];

/**
 * Processes records in slices (a fetch can hold tens of thousands of records; commits keep their
 * interval, 100 ms under exactly-once), as `nextSlice` hands them out, calling `afterSlice` after
 * each (where the stream thread commits when due). Each slice's prefetch reads RocksDB on its
 * pool while the slice before runs. Resolves once no read is in flight, also when a slice or
 * `afterSlice` failed (then with that error): the task may close next.
 */
export async function processInSlices(
  task: Pick<StreamTask, 'prepare' | 'run'>,
  nextSlice: NextSlice,
  afterSlice: () => Promise<void>,
): Promise<void> {
  const slice = (): PreparedBatch | undefined => {
    const records = nextSlice();
    return records.length > 0 ? task.prepare(records) : undefined;
  };
  let next = slice();
  try {
    while (next !== undefined) {
      const current = next;
      await current.loaded;
      next = undefined; // a failed prepare leaves nothing in flight
      next = slice();
      task.run(current);
      await afterSlice();
    }
  } finally {
    await next?.loaded.catch(() => undefined);
  }
}

import type { ConsumedRecord } from '../../../client/consumed-record';
import type { PreparedBatch } from '../task/prepared-batch';
import { MAX_RECORDS_PER_SLICE, processInSlices, type NextSlice } from './sliced-processing';

const records = (count: number): ConsumedRecord[] =>
  Array.from({ length: count }, (_, offset) => ({
    topic: 'in',
    partition: 0,
    offset,
    timestamp: offset,
    key: null,
    value: null,
    headers: {},
  }));

/** The slices of `records`, in order, as a task's input hands them out. */
function slicesOf(records: readonly ConsumedRecord[]): NextSlice {
  let from = 0;
  return () => {
    const slice = records.slice(from, from + MAX_RECORDS_PER_SLICE);
    from += slice.length;
    return slice;
  };
}

/** A task that records the order of its calls; each slice's prefetch settles when told. */
function fakeTask(failRunAt?: number) {
  const events: string[] = [];
  const reads: { settle: () => void; settled: boolean }[] = [];
  const task = {
    prepare(slice: readonly ConsumedRecord[]): PreparedBatch {
      const n = slice[0].offset / MAX_RECORDS_PER_SLICE;
      events.push(`prepare ${n} (${slice.length})`);
      const read = { settle: () => undefined, settled: false };
      const loaded = new Promise<void>((resolve) => {
        read.settle = () => {
          read.settled = true;
          events.push(`loaded ${n}`);
          resolve();
        };
      });
      reads.push(read);
      return { ready: [], skipped: slice, sends: [], loaded };
    },
    run(batch: PreparedBatch): void {
      const n = batch.skipped[0].offset / MAX_RECORDS_PER_SLICE;
      events.push(`run ${n}`);
      if (n === failRunAt) throw new Error(`slice ${n} failed`);
    },
  };
  // Reads settle on their own, one turn after they start (as the pool answers).
  const pump = setInterval(() => reads.filter((r) => !r.settled).forEach((r) => r.settle()), 1);
  return { task, events, stop: () => clearInterval(pump) };
}

describe('processInSlices', () => {
  it('prepares each slice (its prefetch started) before it runs the one before', async () => {
    const { task, events, stop } = fakeTask();
    await processInSlices(task, slicesOf(records(2 * MAX_RECORDS_PER_SLICE + 10)), async () => {
      events.push('after');
    });
    stop();
    expect(events).toEqual([
      'prepare 0 (1000)',
      'loaded 0',
      'prepare 1 (1000)',
      'run 0',
      'after',
      'loaded 1',
      'prepare 2 (10)',
      'run 1',
      'after',
      'loaded 2',
      'run 2',
      'after',
    ]);
  });

  it('fails with the slice’s error only once the next slice’s read is no longer in flight', async () => {
    const { task, events, stop } = fakeTask(0);
    await expect(
      processInSlices(task, slicesOf(records(2 * MAX_RECORDS_PER_SLICE)), async () => undefined),
    ).rejects.toThrow('slice 0 failed');
    stop();
    expect(events).toEqual([
      'prepare 0 (1000)',
      'loaded 0',
      'prepare 1 (1000)',
      'run 0',
      'loaded 1',
    ]);
  });
});

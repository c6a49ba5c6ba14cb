import { CorruptRecordBatchError } from '../../../errors/corrupt-record-batch.error';
import type { ChangelogRecord } from '../../../processor/state-store-context';
import { PartitionOffsetOutOfRangeError } from '../../../errors/internals/partition-offset-out-of-range.error';
import type {
  AssignedPartitionReader,
  FetchedPartition,
  PartitionFetchPosition,
} from '../../../client/assigned-partition-reader';
import { StandbyFetchLoop, type FollowedPartition } from './standby-fetch-loop';
import type { StandbyPartition, StandbyTask } from './standby-task';

const TOPIC = 'app-store-changelog';

/** A standby task double: applies batches to a list and moves the position as the real one. */
function followed(position: number) {
  const applied: string[] = [];
  const partition = {
    storeName: 'store',
    topic: TOPIC,
    partition: 0,
    position,
  } as StandbyPartition;
  const task = {
    id: { toString: () => '0_0' },
    apply: async (p: StandbyPartition, records: readonly ChangelogRecord[], lastOffset: number) => {
      applied.push(...records.map((r) => r.key.toString()));
      if (lastOffset + 1 > p.position) p.position = lastOffset + 1;
    },
  } as unknown as StandbyTask;
  const entry: FollowedPartition = { task, partition };
  return { entry, applied, partitions: new Map([[`${TOPIC}:0`, entry]]) };
}

/** A reader answering each fetch with the next scripted step (then nothing, after 5 ms). */
function scriptedReader(steps: ((p: PartitionFetchPosition) => FetchedPartition | Error)[]) {
  const asked: number[] = [];
  let closed = false;
  let release: (() => void) | undefined;
  const reader: AssignedPartitionReader = {
    async fetch(positions) {
      const p = positions[0];
      asked.push(p.offset);
      const step = steps.shift();
      if (step === undefined) {
        await new Promise<void>((resolve) => {
          release = resolve;
          setTimeout(resolve, 5);
        });
        if (closed) throw new Error('reader closed');
        return [];
      }
      const result = step(p);
      if (result instanceof Error) throw result;
      return [result];
    },
    async close() {
      closed = true;
      release?.();
    },
  };
  return { reader, asked, closed: () => closed };
}

function fetched(
  p: PartitionFetchPosition,
  keys: (string | null)[],
  nextOffset: number,
): FetchedPartition {
  return {
    topic: p.topic,
    partition: p.partition,
    fetchOffset: p.offset,
    records: keys.map((key, i) => ({
      key: key === null ? null : Buffer.from(key),
      value: Buffer.from('v'),
      timestamp: 0,
      offset: p.offset - 1 + i,
    })),
    nextOffset,
    highWatermark: nextOffset,
    lastStableOffset: nextOffset,
  };
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(condition()).toBe(true);
}

describe('StandbyFetchLoop', () => {
  const warnings: string[] = [];
  const errors: string[] = [];
  const logger = {
    error: (m: string) => void errors.push(m),
    info: () => undefined,
    debug: () => undefined,
    warn: (m: string) => void warnings.push(m),
  };
  beforeEach(() => {
    warnings.length = 0;
    errors.length = 0;
  });
  /** A loop over `partitions` that ignores what it applied, their logs starting at 0. */
  const startLoop = (
    reader: AssignedPartitionReader,
    partitions: ReadonlyMap<string, FollowedPartition>,
    retryDelayMs: number,
  ): StandbyFetchLoop =>
    new StandbyFetchLoop({
      reader,
      partitions,
      logger,
      retryDelayMs,
      onApplied: () => undefined,
      logStart: async () => 0,
    });

  it('applies each fetched batch from the position on, skips unkeyed records, and moves past markers', async () => {
    const { applied, partitions, entry } = followed(5);
    // The first batch starts one record before the position (a batch fetched whole).
    const { reader, asked } = scriptedReader([
      (p) => fetched(p, ['before', 'a', null, 'b'], 9),
      (p) => fetched(p, [], 12), // markers only
    ]);
    const batches: number[] = [];
    const loop = new StandbyFetchLoop({
      reader,
      partitions,
      logger,
      retryDelayMs: 10,
      onApplied: (_, records) => void batches.push(records),
      logStart: async () => 0,
    });
    await until(() => entry.partition.position === 12);
    await loop.stop();

    expect(applied).toEqual(['a', 'b']);
    expect(batches).toEqual([2, 0]);
    expect(asked.slice(0, 3)).toEqual([5, 9, 12]);
  });

  it('retries a failed fetch after the delay from the same position, with a warning', async () => {
    const { applied, partitions, entry } = followed(0);
    const { reader, asked } = scriptedReader([
      () => Object.assign(new Error('Connection refused'), { name: 'KafkaJSConnectionError' }),
      (p) => fetched(p, [null, 'a'], 2),
    ]);
    const loop = startLoop(reader, partitions, 20);
    await until(() => entry.partition.position === 2);
    await loop.stop();

    expect(applied).toEqual(['a']);
    expect(asked.slice(0, 2)).toEqual([0, 0]);
    expect(warnings).toEqual([expect.stringContaining('Connection refused')]);
  });

  it('follows a partition from its log start when its position left the log', async () => {
    const { partitions, entry } = followed(40);
    const { reader, asked } = scriptedReader([
      () => new PartitionOffsetOutOfRangeError(TOPIC, 0, 40),
      (p) => fetched(p, [null, 'x'], 101),
    ]);
    const loop = new StandbyFetchLoop({
      reader,
      partitions,
      logger,
      retryDelayMs: 1000,
      onApplied: () => undefined,
      logStart: async () => 100,
    });
    await until(() => entry.partition.position === 101);
    await loop.stop();

    expect(asked.slice(0, 2)).toEqual([40, 100]);
    expect(warnings).toEqual([expect.stringContaining('following it from its log start, 100')]);
  });

  it('stops at once while waiting to retry, and closes the reader', async () => {
    const { partitions } = followed(0);
    const { reader, asked, closed } = scriptedReader([() => new Error('broker gone')]);
    const loop = startLoop(reader, partitions, 600_000);
    await until(() => warnings.length === 1);
    // Waiting out the 10-minute retry delay would fail this test by its timeout.
    await loop.stop();
    expect(closed()).toBe(true);
    expect(asked).toEqual([0]);
  });

  it('fetches a corrupt record batch again after the delay, and applies it once the fault does not repeat', async () => {
    const { applied, partitions, entry } = followed(0);
    const { reader, asked } = scriptedReader([
      () => new CorruptRecordBatchError(TOPIC, 0, 0, 1, 2),
      (p) => fetched(p, [null, 'a'], 2),
    ]);
    const loop = startLoop(reader, partitions, 10);
    try {
      await until(() => entry.partition.position === 2);
    } finally {
      await loop.stop();
    }

    expect(applied).toEqual(['a']);
    expect(asked.slice(0, 2)).toEqual([0, 0]);
    expect(warnings).toEqual([expect.stringContaining('of app-store-changelog-0 is corrupt')]);
    expect(errors).toEqual([]);
  });

  it('stops following a partition whose batch three fetches found corrupt, with an error, and follows the others', async () => {
    const corrupt = followed(7).entry;
    const healthy = followed(5).entry;
    (healthy.partition as { partition: number }).partition = 1;
    const partitions = new Map([
      [`${TOPIC}:0`, corrupt],
      [`${TOPIC}:1`, healthy],
    ]);
    const asked: string[][] = [];
    const reader: AssignedPartitionReader = {
      async fetch(positions) {
        asked.push(positions.map((p) => `${p.partition}@${p.offset}`));
        await new Promise((resolve) => setTimeout(resolve, 2));
        if (positions.some((p) => p.partition === 0)) {
          throw new CorruptRecordBatchError(TOPIC, 0, 7, 0x1234abcd, 0x0badf00d);
        }
        const p = positions[0];
        return p.offset === 5 ? [fetched(p, [null, 'y'], 6)] : [];
      },
      async close() {},
    };
    const loop = startLoop(reader, partitions, 5);
    try {
      await until(() => healthy.partition.position === 6);
    } finally {
      await loop.stop();
    }

    expect(asked.slice(0, 4)).toEqual([['0@7', '1@5'], ['0@7', '1@5'], ['0@7', '1@5'], ['1@5']]);
    expect(corrupt.partition.position).toBe(7);
    expect(warnings).toHaveLength(2);
    expect(errors).toEqual([
      "standby 0_0: the record batch at offset 7 of app-store-changelog-0 is corrupt: its header's CRC-32C is 0x1234abcd, its bytes give 0x0badf00d; 3 fetches of it found it corrupt (corrupt in the partition's log on the broker): no longer following app-store-changelog-0 from position 7; its lag grows until the standby tasks change",
    ]);
  });

  it('ends when every partition is given up on', async () => {
    const { partitions } = followed(3);
    const { reader, asked } = scriptedReader(
      Array.from({ length: 3 }, () => () => new CorruptRecordBatchError(TOPIC, 0, 3, 1, 2)),
    );
    const loop = startLoop(reader, partitions, 5);
    try {
      await until(() => errors.length === 1);
      await new Promise((resolve) => setTimeout(resolve, 30));
    } finally {
      await loop.stop();
    }
    expect(asked).toEqual([3, 3, 3]);
  });
});

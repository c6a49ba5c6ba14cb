import type { ThrowawayGroupClient } from '../../../client/kafkajs/throwaway-group-consumer';
import type { ClusterAdmin } from '../../../client/cluster-admin';
import { CorruptRecordBatchError } from '../../../errors/corrupt-record-batch.error';
import { PartitionOffsetOutOfRangeError } from '../../../errors/internals/partition-offset-out-of-range.error';
import type { ChangelogRecord } from '../../../processor/state-store-context';
import { RecordingLogger } from '../../../../test-support/recording-logger';
import type {
  AssignedPartitionReader,
  FetchedPartition,
  PartitionFetchPosition,
} from '../../../client/assigned-partition-reader';
import type { RestoreTarget } from './restore-target';
import { StateRestorer } from './state-restorer';

const TOPIC = 'app-store-changelog';

/** A changelog partition: a keyed record per offset, `null` for a marker or aborted record. */
type Log = (string | null)[];

/**
 * A scripted reader over in-memory partitions: each fetch returns up to `perFetch` offsets from
 * each position; `failures` are thrown by the fetches of that number (1-based, over all readers),
 * or made by calling them then.
 */
function fakeReaders(
  logs: Record<number, Log>,
  options: { perFetch?: number; failures?: Record<number, Error | (() => Error)> } = {},
) {
  const fetches: { positions: PartitionFetchPosition[]; writesDone: number }[] = [];
  let readers = 0;
  let closed = 0;
  let writesDone = 0;
  const factory = (): AssignedPartitionReader => {
    readers++;
    return {
      async fetch(positions) {
        fetches.push({ positions: [...positions], writesDone });
        const failure = options.failures?.[fetches.length];
        if (failure) throw typeof failure === 'function' ? failure() : failure;
        await new Promise((resolve) => setImmediate(resolve));
        return positions.map((p): FetchedPartition => {
          const log = logs[p.partition];
          const last = Math.min(log.length, p.offset + (options.perFetch ?? 3)) - 1;
          const records = [];
          for (let offset = p.offset; offset <= last; offset++) {
            const key = log[offset];
            if (key !== null) {
              records.push({
                key: Buffer.from(key),
                value: Buffer.from('v'),
                timestamp: 0,
                offset,
              });
            }
          }
          return {
            topic: p.topic,
            partition: p.partition,
            fetchOffset: p.offset,
            records,
            nextOffset: Math.max(p.offset, last + 1),
            highWatermark: log.length,
            lastStableOffset: log.length,
          };
        });
      },
      async close() {
        closed++;
      },
    };
  };
  return {
    factory,
    fetches,
    readers: () => readers,
    closed: () => closed,
    wrote: () => writesDone++,
  };
}

/** An admin over the in-memory partitions; `logStarts` where each log starts (default 0). */
function fakeAdmin(
  logs: Record<number, Log>,
  logStarts: Record<number, number> = {},
): ClusterAdmin {
  return {
    fetchTopicOffsets: async () =>
      Object.entries(logs).map(([partition, log]) => ({
        partition: Number(partition),
        low: logStarts[Number(partition)] ?? 0,
        high: log.length,
      })),
  } as unknown as ClusterAdmin;
}

/** A store's restore target; a wipe empties `written` of the partition's records. */
function target(
  partition: number,
  startOffset: number | undefined,
  written: string[],
  write: (records: readonly ChangelogRecord[]) => void | Promise<void> = () => undefined,
): RestoreTarget {
  return {
    storeName: `store-${partition}`,
    topic: TOPIC,
    partition,
    startOffset,
    restoreBatch: async (records) => {
      await write(records);
      written.push(...records.map((r) => `${partition}:${r.key.toString()}`));
    },
    wipe: async () => {
      const kept = written.filter((w) => !w.startsWith(`${partition}:`));
      written.splice(0, written.length, ...kept);
    },
  };
}

function restorer(
  fake: ReturnType<typeof fakeReaders>,
  logs: Record<number, Log>,
  logger: RecordingLogger,
  stallTimeoutMs?: number,
  logStarts?: Record<number, number>,
): StateRestorer {
  return new StateRestorer({
    kafka: {} as ThrowawayGroupClient,
    admin: fakeAdmin(logs, logStarts),
    readers: fake.factory,
    groupIdPrefix: 'app',
    logger,
    stallTimeoutMs,
  });
}

describe('StateRestorer by assignment', () => {
  let logger: RecordingLogger;
  beforeEach(() => {
    logger = new RecordingLogger();
  });

  /** Restores partition 0 (`a` to `g`) while its third fetch fails with `failure`. */
  const restoreThroughFailedFetch = async (failure: Error) => {
    const logs: Record<number, Log> = { 0: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] };
    const fake = fakeReaders(logs, { failures: { 2: failure } });
    const written: string[] = [];
    const [result] = await restorer(fake, logs, logger).restore([target(0, undefined, written)]);
    return { fake, written, result };
  };

  it('restores each partition from its start offset to the end captured at the start, skipping markers, and joins no group', async () => {
    const logs: Record<number, Log> = {
      0: ['a', 'b', null, 'c', 'd', null, 'e', null],
      1: [null, null, 'x', 'y'],
    };
    const fake = fakeReaders(logs);
    const written: string[] = [];
    const results = await restorer(fake, logs, logger).restore([
      target(0, 1, written),
      target(1, undefined, written),
    ]);

    expect(written.filter((w) => w.startsWith('0:'))).toEqual(['0:b', '0:c', '0:d', '0:e']);
    expect(written.filter((w) => w.startsWith('1:'))).toEqual(['1:x', '1:y']);
    expect(results).toEqual([
      expect.objectContaining({
        partition: 0,
        startOffset: 1,
        endOffset: 8,
        restored: 4,
        lastOffset: 7,
      }),
      expect.objectContaining({
        partition: 1,
        startOffset: 0,
        endOffset: 4,
        restored: 2,
        lastOffset: 3,
      }),
    ]);
    // Fetches move by what was returned: 1 → 4 → 7 (and 0 → 3 for partition 1), then done.
    expect(fake.fetches.map((f) => f.positions.map((p) => `${p.partition}@${p.offset}`))).toEqual([
      ['0@1', '1@0'],
      ['0@4', '1@3'],
      ['0@7'],
    ]);
    expect(fake.readers()).toBe(1);
    expect(fake.closed()).toBe(1);
  });

  it('sends the next fetch before the stores have written the previous one', async () => {
    const logs: Record<number, Log> = { 0: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] };
    const fake = fakeReaders(logs);
    const written: string[] = [];
    await restorer(fake, logs, logger).restore([
      target(0, undefined, written, async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        fake.wrote();
      }),
    ]);

    expect(written).toEqual(['0:a', '0:b', '0:c', '0:d', '0:e', '0:f', '0:g']);
    // Each fetch after the first went out while the batch before it was still being written.
    expect(fake.fetches.map((f) => f.writesDone)).toEqual([0, 0, 1]);
  });

  it('resumes from the positions reached with a new reader when the cluster is unreachable', async () => {
    const unreachable = Object.assign(new Error('Connection timeout'), {
      name: 'KafkaJSConnectionError',
    });
    const { fake, written, result } = await restoreThroughFailedFetch(unreachable);

    expect(written).toEqual(['0:a', '0:b', '0:c', '0:d', '0:e', '0:f', '0:g']);
    expect(result).toMatchObject({ restored: 7, lastOffset: 6 });
    expect(fake.fetches.map((f) => f.positions[0].offset)).toEqual([0, 3, 3, 6]);
    expect(fake.readers()).toBe(2);
    expect(fake.closed()).toBe(2);
    expect(logger.warnings).toEqual([expect.stringContaining('Connection timeout')]);
  });

  it('wipes a store whose position left the log and restores it again from the log start, the other partition resuming', async () => {
    const logs: Record<number, Log> = { 0: ['a', 'b', 'c', 'd', 'e', 'f'], 1: ['x', 'y', 'z'] };
    const logStarts: Record<number, number> = {};
    // The broker deleted partition 0's records before offset 4 when the second fetch asks.
    const fake = fakeReaders(logs, {
      perFetch: 2,
      failures: {
        2: () => {
          logStarts[0] = 4;
          return new PartitionOffsetOutOfRangeError(TOPIC, 0, 2);
        },
      },
    });
    const written: string[] = [];
    const results = await restorer(fake, logs, logger, undefined, logStarts).restore([
      target(0, undefined, written),
      target(1, undefined, written),
    ]);

    expect(written.filter((w) => w.startsWith('0:'))).toEqual(['0:e', '0:f']);
    expect(written.filter((w) => w.startsWith('1:'))).toEqual(['1:x', '1:y', '1:z']);
    expect(results[0]).toMatchObject({ wiped: true, startOffset: 4, restored: 2, lastOffset: 5 });
    expect(results[1]).toMatchObject({ wiped: false, startOffset: 0, restored: 3 });
    expect(fake.fetches.map((f) => f.positions.map((p) => `${p.partition}@${p.offset}`))).toEqual([
      ['0@0', '1@0'],
      ['0@2', '1@2'],
      ['0@4', '1@2'],
    ]);
    expect(logger.warnings).toEqual([
      'store store-0: restore position 2 is no longer in app-store-changelog-0: the broker deleted the records before 4 (retention, or DeleteRecords); wiping the store and restoring it again from the log start',
    ]);
  });

  it('fails with ChangelogRestoreError when a position leaves the log a fourth time in one restore', async () => {
    const logs: Record<number, Log> = { 0: ['a', 'b', 'c', 'd'] };
    const truncated = new PartitionOffsetOutOfRangeError(TOPIC, 0, 0);
    const fake = fakeReaders(logs, {
      failures: { 1: truncated, 2: truncated, 3: truncated, 4: truncated },
    });
    await expect(
      restorer(fake, logs, logger).restore([target(0, undefined, [])]),
    ).rejects.toMatchObject({
      name: 'ChangelogRestoreError',
      code: 'CHANGELOG_RESTORE_FAILED',
      cause: truncated,
      message: expect.stringContaining(
        'position 0 is no longer in the log, for the 4th time in this restore',
      ),
    });
    expect(fake.readers()).toBe(4);
    expect(logger.warnings).toHaveLength(3);
  });

  it('fetches a corrupt record batch again with a new reader, and restores every record once when the fault does not repeat', async () => {
    const corrupt = new CorruptRecordBatchError(TOPIC, 0, 3, 0x1234abcd, 0x0badf00d);
    const { fake, written, result } = await restoreThroughFailedFetch(corrupt);

    expect(written).toEqual(['0:a', '0:b', '0:c', '0:d', '0:e', '0:f', '0:g']);
    expect(result).toMatchObject({ restored: 7, lastOffset: 6 });
    expect(fake.fetches.map((f) => f.positions[0].offset)).toEqual([0, 3, 3, 6]);
    expect(fake.readers()).toBe(2);
    expect(logger.warnings).toEqual([
      expect.stringContaining(
        'CorruptRecordBatchError: the record batch at offset 3 of app-store-changelog-0 is corrupt',
      ),
    ]);
  });

  it('fails with ChangelogRestoreError caused by the CorruptRecordBatchError once three fetches found the batch corrupt, having written none of it', async () => {
    const logs: Record<number, Log> = { 0: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] };
    const corrupt = new CorruptRecordBatchError(TOPIC, 0, 3, 0x1234abcd, 0x0badf00d);
    const fake = fakeReaders(logs, { failures: { 2: corrupt, 3: corrupt, 4: corrupt } });
    const written: string[] = [];

    await expect(
      restorer(fake, logs, logger).restore([target(0, undefined, written)]),
    ).rejects.toMatchObject({
      name: 'ChangelogRestoreError',
      code: 'CHANGELOG_RESTORE_FAILED',
      topic: TOPIC,
      partition: 0,
      cause: corrupt,
      message: expect.stringContaining(
        "is corrupt: its header's CRC-32C is 0x1234abcd, its bytes give 0x0badf00d; 3 fetch(es) of it found it corrupt, and none of its records was written",
      ),
    });
    expect(written).toEqual(['0:a', '0:b', '0:c']);
    expect(fake.fetches.map((f) => f.positions[0].offset)).toEqual([0, 3, 3, 3]);
    expect(fake.readers()).toBe(3);
    expect(fake.closed()).toBe(3);
    expect(logger.warnings).toHaveLength(2);
  });

  it('stops at a failed store write, writes nothing after it and says which store failed', async () => {
    const logs: Record<number, Log> = { 0: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] };
    const fake = fakeReaders(logs);
    const written: string[] = [];
    let writes = 0;
    const disk = new Error('disk full');
    await expect(
      restorer(fake, logs, logger).restore([
        target(0, undefined, written, () => {
          if (++writes === 2) throw disk;
        }),
      ]),
    ).rejects.toMatchObject({
      name: 'ChangelogRestoreError',
      cause: disk,
      message: expect.stringContaining('writing a batch to store store-0 failed'),
    });
    expect(written).toEqual(['0:a', '0:b', '0:c']);
    expect(fake.closed()).toBe(1);
  });

  it('gives up when a partition makes no progress for stallTimeoutMs', async () => {
    const logs: Record<number, Log> = { 0: ['a', 'b'] };
    const fake = fakeReaders(logs, { perFetch: 0 });
    await expect(
      restorer(fake, logs, logger, 300).restore([target(0, undefined, [])]),
    ).rejects.toMatchObject({
      name: 'ChangelogRestoreError',
      message: expect.stringContaining('no progress for 300 ms (position 0, end offset 2)'),
    });
    expect(fake.closed()).toBe(1);
  });
});

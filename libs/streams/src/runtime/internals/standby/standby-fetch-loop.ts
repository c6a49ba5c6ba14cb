import type { CorruptRecordBatchError } from '../../../errors/corrupt-record-batch.error';
import { PartitionOffsetOutOfRangeError } from '../../../errors/internals/partition-offset-out-of-range.error';
import type { ChangelogRecord } from '../../../processor/state-store-context';
import type { StateLogger } from '../../../logging/logger';
import type {
  AssignedPartitionReader,
  FetchedPartition,
} from '../../../client/assigned-partition-reader';
import { CORRUPT_BATCH_FETCHES, CorruptBatchFetches } from '../restore/corrupt-batch-fetches';
import type { StandbyPartition, StandbyTask } from './standby-task';

/** A standby changelog partition and the task it belongs to. */
export interface FollowedPartition {
  readonly task: StandbyTask;
  readonly partition: StandbyPartition;
}

/** Options of a {@link StandbyFetchLoop}. */
export interface StandbyFetchLoopOptions {
  readonly reader: AssignedPartitionReader;
  readonly partitions: ReadonlyMap<string, FollowedPartition>;
  readonly logger: StateLogger;
  /** How long to wait after a failed fetch before the next one. */
  readonly retryDelayMs: number;
  /** Called after each applied batch. */
  readonly onApplied: (entry: FollowedPartition, records: number) => void;
  /** The partition's log start offset (where a position outside the log resumes). */
  readonly logStart: (topic: string, partition: number) => Promise<number>;
}

/**
 * Follows the standby changelog partitions by assignment (no consumer group): fetches from
 * each partition's position, applies each fetched batch to its store as one write batch, and
 * moves the position past everything returned (markers included). A failed fetch is logged and
 * retried after `retryDelayMs` from the positions reached, and so is a failed store write; a
 * position outside the log (the changelog truncated past it) moves that partition to the log
 * start after a warning, as the group consumer's reset to earliest did. A fetch that found a
 * corrupt record batch (its CRC) is retried the same way (nothing of it is applied); once
 * {@link CORRUPT_BATCH_FETCHES} fetches found the same batch corrupt, the loop stops following
 * that partition (an error is logged; its lag grows, and it is followed again when the standby
 * tasks change) and follows the others.
 */
export class StandbyFetchLoop {
  private stopped = false;
  /** Partitions no longer followed: a record batch of theirs was corrupt in every fetch. */
  private readonly givenUp = new Set<string>();
  private readonly corrupt = new CorruptBatchFetches();
  private readonly running: Promise<void>;
  private wake: (() => void) | undefined;

  constructor(private readonly options: StandbyFetchLoopOptions) {
    this.running = this.run();
  }

  /** Stops after the fetch in flight; applied batches are complete, none is half-written. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.options.reader.close(); // fails a fetch in flight at once
    await this.running;
  }

  private async run(): Promise<void> {
    const { reader, partitions, logger } = this.options;
    while (!this.stopped) {
      const positions = [...partitions]
        .filter(([key]) => !this.givenUp.has(key))
        .map(([, { partition: p }]) => ({
          topic: p.topic,
          partition: p.partition,
          offset: p.position,
        }));
      if (positions.length === 0) return; // every partition given up on
      try {
        await this.applyAll(await reader.fetch(positions));
      } catch (error) {
        if (this.stopped) return;
        if (
          error instanceof PartitionOffsetOutOfRangeError &&
          (await this.resetToLogStart(error))
        ) {
          continue;
        }
        const corruptFetches = this.corrupt.count(error);
        if (corruptFetches >= CORRUPT_BATCH_FETCHES) {
          this.giveUp(error as CorruptRecordBatchError, corruptFetches);
          continue;
        }
        logger.warn(
          `standby changelog read failed (${String(error)}); retrying in ${this.options.retryDelayMs} ms from the positions reached`,
        );
        await this.sleep(this.options.retryDelayMs);
      }
    }
  }

  private async applyAll(fetched: readonly FetchedPartition[]): Promise<void> {
    for (const f of fetched) {
      if (this.stopped) return;
      const entry = this.options.partitions.get(`${f.topic}:${f.partition}`);
      if (!entry || f.nextOffset <= entry.partition.position) continue;
      const records: ChangelogRecord[] = [];
      for (const r of f.records) {
        if (Number(r.offset) < entry.partition.position || r.key === null) continue;
        records.push(r as ChangelogRecord);
      }
      await entry.task.apply(entry.partition, records, f.nextOffset - 1);
      this.options.onApplied(entry, records.length);
    }
  }

  /** Stops following the partition of a batch that was corrupt in every fetch of it. */
  private giveUp(error: CorruptRecordBatchError, fetches: number): void {
    const key = `${error.topic}:${error.partition}`;
    const entry = this.options.partitions.get(key);
    this.givenUp.add(key);
    this.options.logger.error(
      `standby ${entry?.task.id.toString() ?? '(unknown)'}: ${error.message}; ${fetches} fetches of it found it corrupt (corrupt in the partition's log on the broker): no longer following ${error.topic}-${error.partition} from position ${entry?.partition.position ?? '(unknown)'}; its lag grows until the standby tasks change`,
    );
  }

  /** Moves a partition whose position left the log to its log start; false when it cannot. */
  private async resetToLogStart(error: PartitionOffsetOutOfRangeError): Promise<boolean> {
    const entry = this.options.partitions.get(`${error.topic}:${error.partition}`);
    if (!entry) return false;
    const start = await this.options.logStart(error.topic, error.partition).catch(() => undefined);
    if (start === undefined) return false;
    this.options.logger.warn(
      `standby ${entry.task.id.toString()}: ${error.message}; following it from its log start, ${start}`,
    );
    entry.partition.position = start;
    return true;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}

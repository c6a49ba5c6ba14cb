import type { BaseOptions, Consumer } from '@platformatic/kafka';
import { PartitionOffsetOutOfRangeError } from '../../errors/internals/partition-offset-out-of-range.error';
import { RebalanceInProgressError } from '../../errors/internals/rebalance-in-progress.error';
import type { StreamsLogger } from '../../logging/logger';
import type { AssignedPartitionReader } from '../assigned-partition-reader';
import {
  DEFAULT_MAX_PARTITION_FETCH_BYTES,
  type GroupBatchHandler,
  type GroupConsumerOptions,
  type TopicPartitions,
} from '../group-consumer';
import { platformaticAssignedReaderFactory } from './platformatic-assigned-reader';
import { consumedRecord, earliestOffset, startPositions } from './platformatic-group-offsets';

const key = (topic: string, partition: number): string => `${topic}\u0000${partition}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Consecutive failed fetches after which the loop gives up and reports the last error. */
const MAX_FETCH_FAILURES = 20;

/** One assignment's partitions; compared by identity to tell a batch of an older one. */
export interface FetchAssignment {
  readonly partitions: readonly TopicPartitions[];
}

/** What the fetcher reads its state from and reports to. */
export interface PartitionFetcherHooks {
  /** The assignment to fetch, if any. */
  assignment(): FetchAssignment | undefined;
  /** False while the member rebalances or closes: nothing is fetched or delivered. */
  active(): boolean;
  /** True once the consumer closes: the loop ends. */
  closing(): boolean;
  /**
   * Cooperative rebalancing only: whether the member still owns a partition. A batch then
   * stays current while its partition is owned, whatever the assignment became meanwhile;
   * without this hook, a batch is current while its assignment is and the member is active.
   */
  owns?(topic: string, partition: number): boolean;
  readonly handleBatch: GroupBatchHandler;
  onFetch(): void;
  onFailed(error: Error): void;
}

/**
 * Fetches an assignment's partitions for processing, for both platformatic group consumers
 * (classic and streams group): with the engine's reader by assignment (read_committed, CRC-checked, aborted
 * transactions filtered, headers decoded), each partition from its position (the committed
 * offset, else the log start, when it has none), one batch at a time to the engine's handler.
 * Positions outlive an assignment for the partitions the next one keeps (an incremental
 * assignment: the kept tasks carry on); {@link retain} drops the others.
 */
export class PlatformaticPartitionFetcher {
  private readonly positions = new Map<string, number>();
  private readonly paused = new Set<string>();
  private readonly reader: AssignedPartitionReader;
  private readonly maxWaitTimeMs: number;
  private readonly groupId: string;

  /**
   * @param client the group member's client: it reads the committed offsets and log starts.
   * @param clientOptions the connection settings of the reader (a client of its own).
   * @param options the group consumer's: its group, fetch wait and fetch size.
   */
  constructor(
    private readonly client: Consumer<Buffer, Buffer, Buffer, Buffer>,
    clientOptions: BaseOptions,
    options: Pick<GroupConsumerOptions, 'groupId' | 'maxWaitTimeMs' | 'maxBytesPerPartition'>,
    logger: StreamsLogger | undefined,
    private readonly hooks: PartitionFetcherHooks,
  ) {
    this.groupId = options.groupId;
    this.maxWaitTimeMs = options.maxWaitTimeMs;
    // Processors see each record's headers, as Kafka Streams forwards them.
    const reader = platformaticAssignedReaderFactory(
      clientOptions,
      {},
      logger,
    )({
      maxWaitTimeMs: options.maxWaitTimeMs,
      maxBytesPerPartition: options.maxBytesPerPartition ?? DEFAULT_MAX_PARTITION_FETCH_BYTES,
      headers: true,
    });
    if (!reader) throw new Error('no platformatic reader');
    this.reader = reader;
  }

  pause(partitions: readonly TopicPartitions[]): void {
    for (const p of partitions) for (const n of p.partitions) this.paused.add(key(p.topic, n));
  }

  resume(partitions: readonly TopicPartitions[]): void {
    for (const p of partitions) for (const n of p.partitions) this.paused.delete(key(p.topic, n));
  }

  seek(topic: string, partition: number, offset: number): void {
    this.positions.set(key(topic, partition), offset);
  }

  /** Forgets the positions of every partition not in `partitions` (given up). */
  retain(partitions: readonly TopicPartitions[]): void {
    const kept = new Set(partitions.flatMap((p) => p.partitions.map((n) => key(p.topic, n))));
    for (const k of [...this.positions.keys()]) if (!kept.has(k)) this.positions.delete(k);
  }

  /** Forgets every position: each partition starts again from its committed offset. */
  clearPositions(): void {
    this.positions.clear();
  }

  /** Closes the reader (after the loop ended); never throws. */
  async close(): Promise<void> {
    await this.reader.close().catch(() => undefined);
  }

  /** Fetches until the consumer closes (or fails: reported through `onFailed`). */
  async run(): Promise<void> {
    const { hooks } = this;
    let failures = 0;
    while (!hooks.closing()) {
      const assignment = hooks.assignment();
      const wanted = (assignment?.partitions ?? []).flatMap((p) =>
        p.partitions.map((partition) => ({ topic: p.topic, partition })),
      );
      const fetchable = hooks.active()
        ? wanted.filter((p) => !this.paused.has(key(p.topic, p.partition)))
        : [];
      if (fetchable.length === 0) {
        await sleep(Math.min(100, this.maxWaitTimeMs));
        continue;
      }
      try {
        await this.initPositions(fetchable);
        const fetched = await this.reader.fetch(
          fetchable.map((p) => ({ ...p, offset: this.positions.get(key(p.topic, p.partition))! })),
        );
        failures = 0;
        hooks.onFetch();
        const currentAssignment = () =>
          hooks.assignment() === assignment && hooks.active() && !hooks.closing();
        for (const part of fetched) {
          const k = key(part.topic, part.partition);
          const current = hooks.owns
            ? () => hooks.owns!(part.topic, part.partition) && !hooks.closing()
            : currentAssignment;
          // Dropped; no wait until the next check, so a changed assignment drops all that follow.
          if (!current()) continue;
          if (this.paused.has(k) || this.positions.get(k) !== part.fetchOffset) continue;
          if (part.records.length === 0) {
            if (part.nextOffset > part.fetchOffset) this.positions.set(k, part.nextOffset);
            continue;
          }
          const consumed = await hooks.handleBatch({
            topic: part.topic,
            partition: part.partition,
            records: part.records.map((r) => consumedRecord(part.topic, part.partition, r)),
            nextOffset: part.nextOffset,
            isCurrent: current,
            heartbeat: async () => {
              if (!current()) throw new RebalanceInProgressError(this.groupId);
            },
          });
          // A seek during the batch wins over the batch's position.
          if (consumed && this.positions.get(k) === part.fetchOffset) {
            this.positions.set(k, part.nextOffset);
          }
        }
      } catch (error) {
        if (hooks.closing()) return;
        if (error instanceof PartitionOffsetOutOfRangeError) {
          this.positions.set(
            key(error.topic, error.partition),
            await earliestOffset(this.client, error.topic, error.partition),
          );
          continue;
        }
        if (++failures >= MAX_FETCH_FAILURES) {
          hooks.onFailed(error instanceof Error ? error : new Error(String(error)));
          return;
        }
        await sleep(200);
      }
    }
  }

  /** Positions of partitions that have none: the committed offset, else the log start. */
  private async initPositions(partitions: { topic: string; partition: number }[]): Promise<void> {
    const missing = partitions.filter((p) => !this.positions.has(key(p.topic, p.partition)));
    if (missing.length === 0) return;
    for (const { topic, partition, offset } of await startPositions(this.client, missing)) {
      if (!this.positions.has(key(topic, partition)))
        this.positions.set(key(topic, partition), offset);
    }
  }
}

import type { BaseOptions, Consumer } from '@platformatic/kafka';
import { PartitionOffsetOutOfRangeError } from '../../errors/internals/partition-offset-out-of-range.error';
import { RebalanceInProgressError } from '../../errors/internals/rebalance-in-progress.error';
import type { StreamsLogger } from '../../logging/logger';
import type { AssignedPartitionReader, FetchedPartition } from '../assigned-partition-reader';
import { ClusterFaultTimeoutError } from '../../errors/cluster-fault-timeout.error';
import type { ClusterRetry } from '../cluster-retry/cluster-retry';
import {
  DEFAULT_MAX_PARTITION_FETCH_BYTES,
  type GroupBatchHandler,
  type GroupConsumerOptions,
  type TopicPartitions,
} from '../group-consumer';
import { platformaticAssignedReaderFactory } from './platformatic-assigned-reader';
import { consumedRecord, earliestOffset, startPositions } from './platformatic-group-offsets';
import { PlatformaticCoordinators } from './platformatic-coordinators';

const key = (topic: string, partition: number): string => `${topic}\u0000${partition}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Consecutive failed fetches (not transient faults) after which the loop reports the last. */
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
  /** Each partition's end as of its latest fetch: the last stable offset, else the high watermark. */
  private readonly ends = new Map<string, number>();
  /** The batch being handed over: its partition counts as read up to its end meanwhile. */
  private handing: { key: string; nextOffset: number } | undefined;
  private readonly paused = new Set<string>();
  /** Partitions whose committed offsets {@link positionStably} is fetching: not fetched yet. */
  private readonly positioning = new Set<string>();
  private readonly coordinators: PlatformaticCoordinators;
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
    private readonly retry: ClusterRetry,
    private readonly hooks: PartitionFetcherHooks,
  ) {
    this.groupId = options.groupId;
    this.maxWaitTimeMs = options.maxWaitTimeMs;
    this.coordinators = new PlatformaticCoordinators(client);
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
    this.ends.delete(key(topic, partition));
  }

  /** See `GroupConsumer.currentLag`: the latest fetch's end minus the position. */
  currentLag(topic: string, partition: number): number | undefined {
    const k = key(topic, partition);
    const position = this.handing?.key === k ? this.handing.nextOffset : this.positions.get(k);
    const end = this.ends.get(k);
    return position === undefined || end === undefined ? undefined : Math.max(0, end - position);
  }

  /** Forgets the positions of every partition not in `partitions` (given up). */
  retain(partitions: readonly TopicPartitions[]): void {
    const kept = new Set(partitions.flatMap((p) => p.partitions.map((n) => key(p.topic, n))));
    for (const k of [...this.positions.keys()]) if (!kept.has(k)) this.positions.delete(k);
    for (const k of [...this.ends.keys()]) if (!kept.has(k)) this.ends.delete(k);
  }

  /**
   * Finds the positions of the partitions of `partitions` that have none (those an assignment
   * brings): their committed offsets, stable (see `stableCommittedOffsets`), else the log start.
   * The consumers call it before they hand the assignment to the engine, whose tasks restore
   * their stores from the changelogs only then: as in Kafka Streams, where a task reads its
   * committed offsets before it restores, a former owner's transaction still open is committed or
   * aborted first, so the restore reads its changelog records (or none of them) and the input
   * goes on from exactly the offsets they cover. The partitions are not fetched meanwhile.
   *
   * Resolves `false` when the offsets stayed unstable or no coordinator answered within
   * `default.api.timeout.ms`: the failure (`ClusterFaultTimeoutError`) went to `onFailed`, as
   * the fetch loop's do (the thread is replaced); the assignment is not to be handed over.
   */
  async positionStably(partitions: readonly TopicPartitions[]): Promise<boolean> {
    const missing = partitions
      .flatMap((p) => p.partitions.map((partition) => ({ topic: p.topic, partition })))
      .filter(
        (p) =>
          !this.positions.has(key(p.topic, p.partition)) &&
          !this.positioning.has(key(p.topic, p.partition)),
      );
    if (missing.length === 0) return true;
    for (const p of missing) this.positioning.add(key(p.topic, p.partition));
    try {
      await this.initPositions(missing);
      return true;
    } catch (error) {
      if (!this.hooks.closing()) {
        this.hooks.onFailed(error instanceof Error ? error : new Error(String(error)));
      }
      return false;
    } finally {
      for (const p of missing) this.positioning.delete(key(p.topic, p.partition));
    }
  }

  /** Forgets every position: each partition starts again from its committed offset. */
  clearPositions(): void {
    this.positions.clear();
    this.ends.clear();
  }

  /** Closes the reader (after the loop ended); never throws. */
  async close(): Promise<void> {
    await this.reader.close().catch(() => undefined);
  }

  /**
   * Fetches until the consumer closes (or fails: reported through `onFailed`). A fetch that
   * meets a transient cluster fault (a leader that moved or died, a refused connection) is
   * attempted again through the engine's retry policy, with the assignment as it is then, until
   * `default.api.timeout.ms` without a successful fetch (then `ClusterFaultTimeoutError`); other
   * errors are tried again 20 times, 200 ms apart, before they are reported.
   */
  async run(): Promise<void> {
    const { hooks } = this;
    let failures = 0;
    while (!hooks.closing()) {
      try {
        const round = await this.retry.run({
          name: `Fetch of group ${this.groupId}'s partitions`,
          bound: 'api',
          attempt: () => this.fetchRound(),
          stopped: () => hooks.closing(),
        });
        if (round === undefined) {
          await sleep(Math.min(100, this.maxWaitTimeMs));
          continue;
        }
        const { assignment, fetched } = round;
        failures = 0;
        // Every partition's end first: a task handed one partition's batch knows the others'.
        for (const part of fetched) {
          const end = part.lastStableOffset >= 0 ? part.lastStableOffset : part.highWatermark;
          if (end >= 0) this.ends.set(key(part.topic, part.partition), end);
        }
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
          this.handing = { key: k, nextOffset: part.nextOffset };
          const consumed = await hooks
            .handleBatch({
              topic: part.topic,
              partition: part.partition,
              records: part.records.map((r) => consumedRecord(part.topic, part.partition, r)),
              nextOffset: part.nextOffset,
              isCurrent: current,
              heartbeat: async () => {
                if (!current()) throw new RebalanceInProgressError(this.groupId);
              },
            })
            .finally(() => (this.handing = undefined));
          // A seek during the batch wins over the batch's position.
          if (consumed && this.positions.get(k) === part.fetchOffset) {
            this.positions.set(k, part.nextOffset);
          }
        }
      } catch (caught) {
        if (hooks.closing()) return;
        let error = caught;
        if (error instanceof PartitionOffsetOutOfRangeError) {
          const { topic, partition } = error;
          const start = await this.retry
            .run({
              name: `ListOffsets of ${topic}-${partition}`,
              bound: 'api',
              attempt: () => earliestOffset(this.client, topic, partition),
              onFault: () => this.client.clearMetadata(),
            })
            .catch((e: unknown) => e as Error);
          if (typeof start === 'number') {
            this.positions.set(key(topic, partition), start);
            continue;
          }
          error = start;
        }
        if (error instanceof ClusterFaultTimeoutError || ++failures >= MAX_FETCH_FAILURES) {
          hooks.onFailed(error instanceof Error ? error : new Error(String(error)));
          return;
        }
        await sleep(200);
      }
    }
  }

  /**
   * One fetch of the assignment's partitions that are active and not paused (their positions
   * found first), or `undefined` when there are none.
   */
  private async fetchRound(): Promise<
    { assignment: FetchAssignment | undefined; fetched: FetchedPartition[] } | undefined
  > {
    const { hooks } = this;
    const assignment = hooks.assignment();
    const wanted = (assignment?.partitions ?? []).flatMap((p) =>
      p.partitions.map((partition) => ({ topic: p.topic, partition })),
    );
    const fetchable = hooks.active()
      ? wanted.filter(
          (p) =>
            !this.paused.has(key(p.topic, p.partition)) &&
            !this.positioning.has(key(p.topic, p.partition)),
        )
      : [];
    if (fetchable.length === 0) return undefined;
    await this.initPositions(fetchable);
    const fetched = await this.reader.fetch(
      fetchable.map((p) => ({ ...p, offset: this.positions.get(key(p.topic, p.partition))! })),
    );
    return { assignment, fetched };
  }

  /** Positions of partitions that have none: the committed offset, else the log start. */
  private async initPositions(partitions: { topic: string; partition: number }[]): Promise<void> {
    const missing = partitions.filter((p) => !this.positions.has(key(p.topic, p.partition)));
    if (missing.length === 0) return;
    const sender = { member: this.client, coordinators: this.coordinators, retry: this.retry };
    const starts = await startPositions(sender, this.groupId, missing).catch((error: unknown) => {
      this.client.clearMetadata(); // a moved leader or coordinator: asked again next time
      throw error;
    });
    for (const { topic, partition, offset } of starts) {
      if (!this.positions.has(key(topic, partition)))
        this.positions.set(key(topic, partition), offset);
    }
  }
}

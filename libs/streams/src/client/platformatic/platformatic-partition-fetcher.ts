import type { Consumer } from '@platformatic/kafka';
import { PartitionOffsetOutOfRangeError } from '../../errors/internals/partition-offset-out-of-range.error';
import { RebalanceInProgressError } from '../../errors/internals/rebalance-in-progress.error';
import type { AssignedPartitionReader, FetchedRecord } from '../assigned-partition-reader';
import type { ConsumedRecord } from '../consumed-record';
import type { GroupBatchHandler, TopicPartitions } from '../group-consumer';

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
  readonly handleBatch: GroupBatchHandler;
  onFetch(): void;
  onFailed(error: Error): void;
}

/**
 * Fetches an assignment's partitions for processing, as the classic platformatic adapter
 * does: with the engine's reader by assignment (read_committed, CRC-checked, aborted
 * transactions filtered, headers decoded), each partition from its position (the committed
 * offset, else the log start, when it has none), one batch at a time to the engine's handler.
 * Positions outlive an assignment for the partitions the next one keeps (an incremental
 * assignment: the kept tasks carry on); {@link retain} drops the others.
 */
export class PlatformaticPartitionFetcher {
  private readonly positions = new Map<string, number>();
  private readonly paused = new Set<string>();

  constructor(
    private readonly client: Consumer<Buffer, Buffer, Buffer, Buffer>,
    private readonly reader: AssignedPartitionReader,
    private readonly maxWaitTimeMs: number,
    private readonly groupId: string,
    private readonly hooks: PartitionFetcherHooks,
  ) {}

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
        const current = () =>
          hooks.assignment() === assignment && hooks.active() && !hooks.closing();
        for (const part of fetched) {
          const k = key(part.topic, part.partition);
          if (!current()) break;
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
            await this.earliest(error.topic, error.partition),
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
    const byTopic = new Map<string, number[]>();
    for (const p of missing) byTopic.set(p.topic, [...(byTopic.get(p.topic) ?? []), p.partition]);
    const committed = await this.client.listCommittedOffsets({
      topics: [...byTopic].map(([topic, ids]) => ({ topic, partitions: ids })),
    });
    for (const { topic, partition } of missing) {
      const offset = committed.get(topic)?.[partition];
      const position =
        offset !== undefined && offset >= 0n
          ? Number(offset)
          : await this.earliest(topic, partition);
      if (!this.positions.has(key(topic, partition)))
        this.positions.set(key(topic, partition), position);
    }
  }

  private async earliest(topic: string, partition: number): Promise<number> {
    const offsets = await this.client.listOffsets({
      topics: [topic],
      partitions: { [topic]: [partition] },
      timestamp: -2n,
    });
    return Number(offsets.get(topic)?.[partition] ?? 0n);
  }
}

/** A fetched record as the engine consumes it (its headers as decoded, `{}` when none). */
function consumedRecord(topic: string, partition: number, r: FetchedRecord): ConsumedRecord {
  return {
    topic,
    partition,
    offset: r.offset,
    timestamp: r.timestamp,
    key: r.key,
    value: r.value,
    headers: (r.headers ?? {}) as ConsumedRecord['headers'],
  };
}

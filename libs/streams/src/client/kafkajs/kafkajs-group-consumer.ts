import type { Consumer, EachBatchPayload, Kafka } from 'kafkajs';
import type { ConsumedRecord } from '../consumed-record';
import {
  DEFAULT_MAX_PARTITION_FETCH_BYTES,
  type GroupConsumer,
  type GroupConsumerFactory,
  type GroupConsumerOptions,
  type GroupConsumerStart,
  type GroupMetadata,
  type TopicPartitionOffset,
  type TopicPartitions,
} from '../group-consumer';
import { RevocationCommit } from './revocation-commit';
import { RebalanceInProgressError } from '../../errors/internals/rebalance-in-progress.error';
import { AssignerProtocol } from './kafkajs';
import { kafkajsGroupAssigner } from './kafkajs-group-assigner';
import type { ClusterRetry } from '../cluster-retry/cluster-retry';
import { kafkajsClusterRetry, kafkajsRetryOptions } from './kafkajs-transient-faults';
import { kafkajsCommitError, kafkajsGroupError } from './kafkajs-group-errors';
import { cancelGroupRejoin, joiningGeneration, requestGroupRejoin } from './group-rejoin';
import { observeFetchEnds, type FetchedPartitionEnd } from './fetch-ends';
import { KafkajsConfirmedReads } from './kafkajs-confirmed-reads';
import { GroupCoordinatorUnconfirmedError } from '../../errors/internals/group-coordinator-unconfirmed.error';

/** How often, and how many times, a member's own assignment is looked for in the group. */
const DESCRIBE_ATTEMPTS = 50;
const DESCRIBE_INTERVAL_MS = 100;

const key = (topic: string, partition: number): string => `${topic}\u0000${partition}`;

/** A partition's position (the next offset to hand over) and its end, as of its latest fetch. */
interface FetchPosition {
  position: number;
  end: number;
}

/**
 * The kafkajs adapter of {@link GroupConsumer}: one kafkajs `Consumer` in the group, with the
 * engine's assignor as its only partition assigner, `run({ eachBatch })` as the fetch loop
 * (one partition at a time, no auto-commit, no auto-resolve), and the engine's kafkajs patches
 * for what kafkajs lacks:
 * - a member's own assignment user data, which kafkajs drops: read back from the group
 *   description (`describeGroup`, polled every 100 ms, 50 times);
 * - the generation id, which kafkajs' GROUP_JOIN event lacks ({@link joiningGeneration});
 * - `enforceRebalance`, which kafkajs has not: its next heartbeat fails with
 *   REBALANCE_IN_PROGRESS and kafkajs rejoins as the same member ({@link requestGroupRejoin});
 *   a kafkajs of another version, unpatched, leaves and joins again instead;
 * - the eager revocation callback (`onRevoking` before every rejoin, {@link RevocationCommit},
 *   and after a batch whose heartbeat found the group rebalancing).
 *
 * kafkajs restarts a crashed consumer by itself (10 retries), never once the adapter is
 * closing; a consumer that restarted anyway and joins after `close` leaves the group at once.
 * A crash kafkajs does not restart is reported through `onFailed`.
 */
export class KafkajsGroupConsumer implements GroupConsumer {
  private consumer: Consumer | undefined;
  private start$: GroupConsumerStart | undefined;
  private closing = false;
  private metadata: GroupMetadata | undefined;
  private readonly revocation: RevocationCommit;
  /** The member's assigned partitions' positions and ends (see `currentLag`), by key. */
  private fetched = new Map<string, FetchPosition>();
  private assigned = new Set<string>();
  /** The batch being handed over: its partition counts as read up to its end meanwhile. */
  private handing: { key: string; nextOffset: number } | undefined;
  /** `host:port` of the broker that answered the member's latest heartbeat. */
  private heartbeatAnsweredBy: string | undefined;
  /** Asks other brokers who coordinates the group (made at the first check). */
  private confirmedReads: KafkajsConfirmedReads | undefined;

  constructor(
    private readonly kafka: Kafka,
    private readonly options: GroupConsumerOptions,
    private readonly retry: ClusterRetry = kafkajsClusterRetry(),
  ) {
    this.revocation = new RevocationCommit(
      () => ({ applicationId: options.groupId, sessionTimeoutMs: options.sessionTimeoutMs }),
      () => this.start$?.listener.onRevoking() ?? Promise.resolve(),
      () => this.start$?.listener.onLost() ?? Promise.resolve(),
    );
  }

  get groupId(): string {
    return this.options.groupId;
  }

  async start(start: GroupConsumerStart): Promise<void> {
    const { options } = this;
    this.start$ = start;
    const consumer = this.kafka.consumer({
      groupId: options.groupId,
      partitionAssigners: [kafkajsGroupAssigner(options.assignor)],
      sessionTimeout: options.sessionTimeoutMs,
      heartbeatInterval: options.heartbeatIntervalMs,
      rebalanceTimeout: options.rebalanceTimeoutMs,
      readUncommitted: false,
      allowAutoTopicCreation: false,
      maxWaitTimeInMs: options.maxWaitTimeMs,
      maxBytesPerPartition: options.maxBytesPerPartition ?? DEFAULT_MAX_PARTITION_FETCH_BYTES,
      // kafkajs retries a commit, and its fetch loop, with the policy's back-off within
      // default.api.timeout.ms; it restarts a crashed consumer by itself, never once this
      // adapter is closing.
      retry: {
        ...kafkajsRetryOptions(this.retry.settings, 'api'),
        restartOnFailure: () => Promise.resolve(!this.closing),
      },
    });
    this.consumer = consumer;
    const { listener } = start;
    consumer.on(consumer.events.REBALANCING, () => {
      if (!this.closing) listener.onRebalancing();
    });
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
      if (this.closing) {
        // A restart kafkajs scheduled after a crash raced close() (its stop() only clears a
        // restart timer that has not fired yet): this zombie member would take partitions.
        void consumer.disconnect().catch(() => undefined);
        return;
      }
      const { memberId, memberAssignment } = payload;
      // Positions start again from the committed offsets: lags are unknown until fetched.
      this.fetched = new Map();
      this.assigned = new Set(
        Object.entries(memberAssignment).flatMap(([t, ps]) => ps.map((p) => key(t, p))),
      );
      const generationId = joiningGeneration(options.groupId, memberId) ?? -1;
      this.metadata = { groupId: options.groupId, memberId, generationId, groupInstanceId: null };
      this.revocation.joined(memberId);
      listener.onAssigned({
        memberId,
        generationId,
        partitions: Object.entries(memberAssignment).map(([topic, partitions]) => ({
          topic,
          partitions: [...partitions],
        })),
        userData: () => this.readOwnUserData(consumer, memberId),
      });
    });
    // A completed fetch (even an empty one) shows the poll loop is alive.
    consumer.on(consumer.events.FETCH, () => listener.onFetch());
    // kafkajs emits a request's event as its answer arrives, before the heartbeat's own.
    consumer.on(consumer.events.REQUEST, ({ payload }) => {
      if (payload.apiName === 'Heartbeat') this.heartbeatAnsweredBy = payload.broker;
    });
    consumer.on(consumer.events.HEARTBEAT, () => listener.onHeartbeat?.());
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (!this.closing && !payload.restart) listener.onFailed(payload.error);
    });
    await consumer.connect();
    await consumer.subscribe({ topics: [...start.topics], fromBeginning: true });
    await this.run(consumer);
  }

  pause(partitions: readonly TopicPartitions[]): void {
    this.consumer?.pause(
      partitions.map((p) => ({ topic: p.topic, partitions: [...p.partitions] })),
    );
  }

  resume(partitions: readonly TopicPartitions[]): void {
    this.consumer?.resume(
      partitions.map((p) => ({ topic: p.topic, partitions: [...p.partitions] })),
    );
  }

  seek(topic: string, partition: number, offset: number): void {
    this.fetched.delete(key(topic, partition));
    this.consumer?.seek({ topic, partition, offset: String(offset) });
  }

  currentLag(topic: string, partition: number): number | undefined {
    const k = key(topic, partition);
    const fetched = this.fetched.get(k);
    if (!fetched) return undefined;
    const position = this.handing?.key === k ? this.handing.nextOffset : fetched.position;
    return Math.max(0, fetched.end - position);
  }

  async commitOffsets(offsets: readonly TopicPartitionOffset[]): Promise<void> {
    if (!this.consumer || offsets.length === 0) return;
    try {
      await this.consumer.commitOffsets(
        offsets.map(({ topic, partition, offset }) => ({
          topic,
          partition,
          offset: String(offset),
        })),
      );
    } catch (error) {
      const typed = kafkajsCommitError(this.groupId, this.metadata?.memberId ?? '', error);
      // kafkajs retried the commit within default.api.timeout.ms (its retrier's count).
      const name = `OffsetCommit of group ${this.groupId}`;
      throw typed !== error ? typed : (this.retry.exhausted(name, 'api', error, 1) ?? error);
    }
  }

  groupMetadata(): GroupMetadata | undefined {
    return this.metadata;
  }

  async enforceRebalance(): Promise<void> {
    const consumer = this.consumer;
    const memberId = this.metadata?.memberId;
    if (!consumer || this.closing || !memberId) return;
    if (requestGroupRejoin(this.groupId, memberId)) return;
    // A kafkajs of another version: leaving and joining again is the only way left.
    await consumer.stop().catch(() => undefined);
    if (!this.closing) await this.run(consumer).catch(() => undefined);
  }

  async rejoin(): Promise<void> {
    const consumer = this.consumer;
    if (!consumer || this.closing) return;
    await consumer.stop();
    await this.run(consumer);
  }

  /**
   * Asks the brokers other than the one that answered the latest heartbeat (as kafkajs' request
   * event names it) who coordinates the group (see `GroupConsumer.confirmHeartbeatCoordinator`).
   *
   * @throws GroupCoordinatorUnconfirmedError (retriable) when another broker names another, none
   *   answered, no heartbeat was answered yet, or this kafkajs builds no cluster of the engine's.
   */
  async confirmHeartbeatCoordinator(): Promise<void> {
    const address = this.heartbeatAnsweredBy;
    const unconfirmed = (reason: string): GroupCoordinatorUnconfirmedError =>
      new GroupCoordinatorUnconfirmedError(this.groupId, reason, { answer: 'heartbeat' });
    if (address === undefined) throw unconfirmed('UNCONFIRMED: no heartbeat answered yet');
    this.confirmedReads ??= KafkajsConfirmedReads.of(this.kafka);
    if (!this.confirmedReads) throw unconfirmed('UNCONFIRMED: kafkajs builds no cluster to ask');
    await this.confirmedReads.confirmGroupCoordinator(this.groupId, address);
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.revocation.stop();
    if (this.metadata) cancelGroupRejoin(this.groupId, this.metadata.memberId);
    await this.confirmedReads?.disconnect();
    const consumer = this.consumer;
    if (!consumer) return;
    await consumer.stop().catch(() => undefined);
    await consumer.disconnect().catch(() => undefined);
  }

  /** Runs kafkajs' fetch loop, its fetches reporting the partitions' ends ({@link currentLag}). */
  private run(consumer: Consumer): Promise<void> {
    return observeFetchEnds(
      (ends) => this.onFetchEnds(ends),
      () =>
        consumer.run({
          autoCommit: false,
          eachBatchAutoResolve: false,
          partitionsConsumedConcurrently: 1,
          eachBatch: (payload) => this.onBatch(payload),
        }),
    );
  }

  /** A fetch answered: each assigned partition is at the offset fetched, its end as reported. */
  private onFetchEnds(ends: readonly FetchedPartitionEnd[]): void {
    for (const { topic, partition, fetchOffset, end } of ends) {
      const k = key(topic, partition);
      if (this.assigned.has(k)) this.fetched.set(k, { position: fetchOffset, end });
    }
  }

  private async onBatch({
    batch,
    resolveOffset,
    heartbeat,
    isRunning,
    isStale,
  }: EachBatchPayload): Promise<void> {
    const start = this.start$;
    if (!start || batch.messages.length === 0 || this.closing) return;
    const records: ConsumedRecord[] = batch.messages.map((m) => ({
      topic: batch.topic,
      partition: batch.partition,
      offset: Number(m.offset),
      timestamp: Number(m.timestamp),
      key: m.key ?? null,
      value: m.value ?? null,
      headers: (m.headers ?? {}) as ConsumedRecord['headers'],
    }));
    const nextOffset = Number(batch.lastOffset()) + 1;
    const k = key(batch.topic, batch.partition);
    this.handing = { key: k, nextOffset };
    const consumed = await start
      .handleBatch({
        topic: batch.topic,
        partition: batch.partition,
        records,
        nextOffset,
        isCurrent: () => isRunning() && !isStale(),
        heartbeat: async () => {
          try {
            await heartbeat();
          } catch (error) {
            throw kafkajsGroupError(this.groupId, this.metadata?.memberId ?? '', error) ?? error;
          }
        },
      })
      .finally(() => (this.handing = undefined));
    if (!consumed) return;
    resolveOffset(batch.lastOffset());
    const fetched = this.fetched.get(k);
    if (fetched) fetched.position = nextOffset;
    try {
      await heartbeat();
    } catch (error) {
      // kafkajs has no revocation callback: a heartbeat answered REBALANCE_IN_PROGRESS after
      // the batch is the moment to commit, while this generation may still commit. kafkajs
      // then rejoins (it needs its own error for that).
      if (kafkajsGroupError(this.groupId, '', error)) {
        await start.listener.onRevoking().catch(() => undefined);
      }
      throw error;
    }
  }

  /**
   * This member's assignment user data, read back from the group description (kafkajs keeps
   * only the partitions of a member's own assignment).
   *
   * @throws Error when the description never shows the member's assignment.
   */
  private async readOwnUserData(consumer: Consumer, memberId: string): Promise<Buffer> {
    for (let attempt = 0; ; attempt++) {
      // A later join of this consumer superseded the member (e.g. kafkajs rejoined on its own
      // after UNKNOWN_MEMBER_ID while the thread rejoined too): its assignment is stale.
      if (this.metadata?.memberId !== memberId) throw new RebalanceInProgressError(this.groupId);
      const group = await consumer.describeGroup();
      const member = group.members.find((m) => m.memberId === memberId);
      if (member && member.memberAssignment.length > 0) {
        const decoded = AssignerProtocol.MemberAssignment.decode(member.memberAssignment);
        return decoded?.userData ?? Buffer.alloc(0);
      }
      if (attempt >= DESCRIBE_ATTEMPTS)
        throw new Error(`member ${memberId} has no assignment in the group description`);
      await new Promise((resolve) => setTimeout(resolve, DESCRIBE_INTERVAL_MS));
    }
  }
}

/** The kafkajs group consumers of a client: one per stream thread (or per test member). */
export function kafkajsGroupConsumerFactory(
  kafka: Kafka,
  retry: ClusterRetry = kafkajsClusterRetry(),
): GroupConsumerFactory {
  return (options) => new KafkajsGroupConsumer(kafka, options, retry);
}

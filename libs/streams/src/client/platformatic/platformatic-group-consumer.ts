import { commitRefusal } from '../group-error-names';
import { platformaticGroupError } from './platformatic-group-errors';
import type { BaseOptions } from '@platformatic/kafka';
import { sendOffsetCommit } from './platformatic-group-offsets';
import { CommitFailedError } from '../../errors/internals/commit-failed.error';
import { RebalanceInProgressError } from '../../errors/internals/rebalance-in-progress.error';
import type {
  GroupConsumer,
  GroupConsumerFactory,
  GroupConsumerOptions,
  GroupConsumerStart,
  GroupMetadata,
  TopicPartitionOffset,
  TopicPartitions,
} from '../group-consumer';
import {
  PlatformaticGroupMember,
  groupMemberOptions,
  type ReceivedAssignment,
} from './platformatic-group-member';
import { bridgePlatformaticLogs, describeError } from './platformatic-log-bridge';
import { PlatformaticPartitionFetcher } from './platformatic-partition-fetcher';
import { PlatformaticCoordinators } from './platformatic-coordinators';
import { PlatformaticHeartbeatCoordinatorCheck } from './platformatic-heartbeat-coordinator-check';
import { platformaticClusterRetry } from './platformatic-transient-faults';
import type { ClusterRetry } from '../cluster-retry/cluster-retry';
import type { StreamsLogger } from '../../logging/logger';

const key = (topic: string, partition: number): string => `${topic}\u0000${partition}`;

/** How often the consumer looks whether its membership is alive (see `ensureActiveGroup`). */
const WATCHDOG_TICK_MS = 1_000;

/**
 * The @platformatic/kafka adapter of {@link GroupConsumer}. platformatic's consumer stream
 * always runs its own group protocol and assignor, so the adapter uses platformatic only for
 * group membership ({@link PlatformaticGroupMember}: `joinGroup`, its heartbeats and the
 * rejoins the coordinator asks for, `leaveGroup`), with the engine's assignor and per-member
 * assignment user data in the JoinGroup/SyncGroup requests, and fetches the assignment itself
 * ({@link PlatformaticPartitionFetcher}: the engine's reader by assignment, read_committed,
 * CRC-checked, aborted transactions filtered, headers decoded) from the committed offsets, else
 * the log start. Records reach the engine as the kafkajs adapter hands them over: the same
 * fields, headers in kafkajs' shape (`RecordHeaders`).
 * Offsets are committed with platformatic's OffsetCommit API in the generation the member
 * received: platformatic's own `commit` rejoins and commits again in the next generation when
 * the group rebalanced, which would write offsets of partitions the member may have lost.
 *
 * `enforceRebalance` sends a JoinGroup with the member's id (platformatic's `joinGroup`); the
 * coordinator rebalances when the leader rejoins or the subscription changed.
 */
export class PlatformaticGroupConsumer implements GroupConsumer {
  private member: PlatformaticGroupMember | undefined;
  private fetcher: PlatformaticPartitionFetcher | undefined;
  private start$: GroupConsumerStart | undefined;
  private received: ReceivedAssignment | undefined;
  private current: ReceivedAssignment | undefined;
  private rebalancing = false;
  private closing = false;
  private loop: Promise<void> = Promise.resolve();
  /** The partitions of `current`, as keys. */
  private owned = new Set<string>();
  private readonly cooperative: boolean;
  /** Cooperative: the engine giving up the partitions the latest assignment took away. */
  private revoking: Promise<void> = Promise.resolve();
  /** The latest assignment handed to the engine (its partitions positioned first). */
  private delivered: Promise<void> = Promise.resolve();

  private coordinators: PlatformaticCoordinators | undefined;
  private readonly heartbeats: PlatformaticHeartbeatCoordinatorCheck;
  /** When the coordinator last answered a heartbeat or the member last joined a generation. */
  private lastAnswerAt = Date.now();
  private watchdog: NodeJS.Timeout | undefined;

  constructor(
    private readonly clientOptions: BaseOptions,
    private readonly options: GroupConsumerOptions,
    private readonly logger?: StreamsLogger,
    private readonly retry: ClusterRetry = platformaticClusterRetry(),
  ) {
    this.cooperative = options.rebalanceProtocol === 'cooperative';
    this.heartbeats = PlatformaticHeartbeatCoordinatorCheck.of(options.groupId, clientOptions);
  }

  get groupId(): string {
    return this.options.groupId;
  }

  async start(start: GroupConsumerStart): Promise<void> {
    const { options } = this;
    const { listener } = start;
    this.start$ = start;
    const member = new PlatformaticGroupMember(
      groupMemberOptions(this.clientOptions, options),
      {
        beforeJoin: (memberId) => this.beforeJoin(memberId),
        subscriptionUserData: () => options.assignor.subscriptionUserData(),
        heartbeatFailed: (error) => this.onHeartbeatFailed(error),
        assign: (members) => this.assign(members),
        received: (assignment) => (this.received = assignment),
      },
      options.sessionTimeoutMs / 2,
    );
    this.member = member;
    this.coordinators = new PlatformaticCoordinators(member);
    if (this.logger) bridgePlatformaticLogs(member, this.logger);
    member.topics.trackAll(...start.topics);
    member.on('consumer:group:rebalance', () => this.markRebalancing());
    member.on('consumer:group:join', () => this.onJoined());
    member.on('consumer:heartbeat:end', () => {
      this.lastAnswerAt = Date.now();
      this.heartbeats.answered(member.coordinatorId);
      listener.onHeartbeat?.();
    });
    // platformatic emits 'error' when a rejoin it started by itself (after a failed heartbeat)
    // failed after its few retries.
    member.on('error', (error: Error) => {
      if (this.closing) return;
      // A fenced static member's rejoin fails after platformatic's retries: report the cause.
      const fenced = member.staticMembership?.fenced;
      // A coordinator that moved, hangs or restarts: go on joining, as Kafka's consumer does.
      if (!fenced && this.retry.classify(error)) this.joinInBackground();
      else listener.onFailed(fenced ?? error);
    });
    this.fetcher = new PlatformaticPartitionFetcher(
      member,
      this.clientOptions,
      options,
      this.logger,
      this.retry,
      {
        assignment: () => this.current,
        // Eager: nothing is fetched while rebalancing. Cooperative: the member keeps fetching
        // (and processing) the partitions it owns.
        active: () => this.cooperative || !this.rebalancing,
        closing: () => this.closing,
        ...(this.cooperative ? { owns: (t, p) => this.owned.has(key(t, p)) } : {}),
        handleBatch: start.handleBatch,
        onFetch: () => listener.onFetch(),
        onFailed: (error) => listener.onFailed(error),
      },
    );
    await member.joinGroup({});
    this.lastAnswerAt = Date.now();
    this.watchdog = setInterval(() => this.ensureActiveGroup(), WATCHDOG_TICK_MS);
    this.watchdog.unref();
    this.loop = this.fetcher.run();
  }

  pause(partitions: readonly TopicPartitions[]): void {
    this.fetcher?.pause(partitions);
  }

  resume(partitions: readonly TopicPartitions[]): void {
    this.fetcher?.resume(partitions);
  }

  seek(topic: string, partition: number, offset: number): void {
    this.fetcher?.seek(topic, partition, offset);
  }

  currentLag(topic: string, partition: number): number | undefined {
    return this.fetcher?.currentLag(topic, partition);
  }

  async commitOffsets(offsets: readonly TopicPartitionOffset[]): Promise<void> {
    const member = this.member;
    const generation = this.current;
    if (!member || offsets.length === 0) return;
    if (!generation) {
      throw new CommitFailedError(this.groupId, {
        cause: new RebalanceInProgressError(this.groupId),
      });
    }
    try {
      const instanceId = this.options.groupInstanceId ?? null;
      const sender = { member, coordinators: this.coordinators!, retry: this.retry };
      await sendOffsetCommit(sender, this.groupId, generation, instanceId, offsets);
    } catch (error) {
      const { groupId, options } = this;
      const groupError = platformaticGroupError(groupId, generation.memberId, error, options);
      if (groupError?.code === 'FENCED_INSTANCE_ID') member.staticMembership?.fence(error);
      throw groupError ? commitRefusal(groupId, groupError) : error;
    }
  }

  groupMetadata(): GroupMetadata | undefined {
    const current = this.current;
    const member = this.member;
    if (!current) return undefined;
    // Cooperative: the member holds its partitions in the generation of its latest JoinGroup
    // from the moment it joined it (a cooperative assignor gives nobody else a partition before
    // its owner gave it up): commits name that generation, which the coordinator expects.
    const live = this.cooperative && member?.memberId ? member : undefined;
    return {
      groupId: this.groupId,
      memberId: live?.memberId ?? current.memberId,
      generationId: live?.generationId ?? current.generationId,
      groupInstanceId: this.options.groupInstanceId ?? null,
    };
  }

  async enforceRebalance(): Promise<void> {
    if (!this.member || this.closing) return;
    this.joinInBackground();
  }

  async rejoin(): Promise<void> {
    const member = this.member;
    if (!member || this.closing) return;
    this.markRebalancing();
    // A new member owns nothing: what the engine still holds it closes itself (it asked).
    this.setCurrent(undefined);
    this.fetcher?.clearPositions();
    // Kafka's consumer does not wait to hear that it left: a coordinator that moved, hangs or
    // restarts drops the old member after session.timeout.ms. The JoinGroup below carries the
    // old member id: the same member if the coordinator still knows it, else (UNKNOWN_MEMBER_ID)
    // platformatic joins as a new one.
    await this.leave(true).catch((error: unknown) =>
      this.logger?.warn(
        `group ${this.groupId}: LeaveGroup failed (${describeError(error)}); joining again all the same`,
      ),
    );
    await this.join();
  }

  /** See `GroupConsumer.confirmHeartbeatCoordinator` ({@link PlatformaticHeartbeatCoordinatorCheck}). */
  confirmHeartbeatCoordinator(): Promise<void> {
    return this.heartbeats.confirm();
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    clearInterval(this.watchdog);
    await this.heartbeats.close();
    await this.loop.catch(() => undefined);
    // KIP-345: a static member stays in the group, so a restart within the session is no rebalance.
    if (this.member?.staticMembership) this.member.staticMembership.remainInGroup();
    else if (this.member) await this.leave();
    if (this.member) await (this.member.close(true) as Promise<void>).catch(() => undefined);
    await this.fetcher?.close();
  }

  /**
   * JoinGroup (and SyncGroup) through the engine's retry policy: platformatic retries a few
   * times; a coordinator that moved, hangs or restarts is looked up again with back-off within
   * `default.api.timeout.ms`, then `ClusterFaultTimeoutError` (the thread is replaced). Other
   * errors are thrown at once.
   */
  private join(): Promise<void> {
    return this.retry.run({
      name: `JoinGroup of group ${this.groupId}`,
      bound: 'api',
      attempt: async () => {
        await this.member!.joinGroup({});
      },
      stopped: () => this.closing,
    });
  }

  /**
   * Kafka's consumer makes sure of its membership at every poll (`ensureActiveGroup`); here
   * platformatic's heartbeats carry it, and they stop for good when a rejoin of platformatic's
   * own fails. A member that is neither heartbeating nor joining, and has heard nothing from the
   * coordinator for a rebalance and a session timeout, joins again: otherwise it would hold its
   * tasks unconfirmed, answering queries 503, for as long as the process lives.
   */
  private ensureActiveGroup(): void {
    const member = this.member;
    if (!member || this.closing || member.isActive()) return;
    const silentMs = Date.now() - this.lastAnswerAt;
    if (silentMs <= this.options.rebalanceTimeoutMs + this.options.sessionTimeoutMs) return;
    this.lastAnswerAt = Date.now();
    this.logger?.warn(
      `group ${this.groupId}: no heartbeat answered and no generation joined for ${Math.round(silentMs / 1000)} s, and the member is neither heartbeating nor joining: joining again`,
    );
    this.joinInBackground();
  }

  /** {@link join} without waiting; its failure fails the consumer (`onFailed`). */
  private joinInBackground(): void {
    void this.join().catch((error: Error) => {
      if (!this.closing) this.start$?.listener.onFailed(error);
    });
  }

  /** Leaves the group (closing the member's streams, if any); errors are thrown only if asked. */
  private leave(throwErrors = false): Promise<void> {
    return new Promise<void>((resolve, reject) =>
      this.member!.leaveGroup(true, (error) => (error && throwErrors ? reject(error) : resolve())),
    );
  }

  private markRebalancing(): void {
    if (this.rebalancing || this.closing) return;
    this.rebalancing = true;
    this.start$?.listener.onRebalancing();
  }

  /**
   * Before every JoinGroup. Eager: a rejoining member revokes everything (the engine commits).
   * Cooperative: it keeps its partitions (the engine only lets a commit in flight finish), and a
   * member joining without an id owns nothing any more: its partitions are dropped.
   */
  private async beforeJoin(memberId: string): Promise<void> {
    if (this.closing) return;
    if (memberId) this.markRebalancing();
    // KIP-429 ordering: a member sends its next JoinGroup (and the partitions it owns) only
    // once it gave up what its last assignment took away.
    if (this.cooperative) await this.revoking;
    if (this.cooperative && !memberId) await this.dropOwned();
    else if (memberId) await this.start$!.listener.onRevoking();
  }

  /** A heartbeat failed: under cooperative, a lost membership drops the member's partitions. */
  private async onHeartbeatFailed(error: Error): Promise<void> {
    if (!this.cooperative || this.closing) return;
    const groupError = platformaticGroupError(this.groupId, this.member?.memberId ?? '', error);
    if (groupError && !(groupError instanceof RebalanceInProgressError)) await this.dropOwned();
  }

  /** Kafka's `onPartitionsLost`: the member's partitions may be someone else's already. */
  private async dropOwned(): Promise<void> {
    if (this.owned.size === 0) return;
    this.logger?.warn(`group ${this.groupId}: membership lost, dropping its partitions`);
    this.setCurrent(undefined);
    this.fetcher?.clearPositions();
    await this.start$!.listener.onLost();
  }

  private setCurrent(assignment: ReceivedAssignment | undefined): void {
    this.current = assignment;
    this.owned = new Set(
      (assignment?.partitions ?? []).flatMap((p) => p.partitions.map((n) => key(p.topic, n))),
    );
  }

  private onJoined(): void {
    const assignment = this.received;
    if (!assignment || this.closing) return;
    this.lastAnswerAt = Date.now();
    const before = this.owned;
    this.setCurrent(assignment);
    this.rebalancing = false;
    const revoked = [...before].filter((k) => !this.owned.has(k));
    // Eager: positions start again from the committed offsets in every generation.
    // Cooperative: kept partitions go on from where they are.
    if (this.cooperative) this.fetcher?.retain(assignment.partitions);
    else this.fetcher?.clearPositions();
    const listener = this.start$!.listener;
    // The new partitions' committed offsets first, stable (a former owner's open transaction
    // resolved), then the engine, whose tasks restore only then; one assignment after another,
    // and one a later join superseded meanwhile is left to that one.
    const deliver = async (): Promise<void> => {
      if (!(await this.fetcher!.positionStably(assignment.partitions))) return;
      if (this.closing || this.current !== assignment) return;
      await listener.onAssigned({
        memberId: assignment.memberId,
        generationId: assignment.generationId,
        partitions: assignment.partitions,
        userData: () => Promise.resolve(assignment.userData),
      });
    };
    const applied = this.delivered.then(deliver);
    this.delivered = applied.catch(() => undefined);
    // KIP-429: once the revoked partitions are given up, rejoin so that their next owners get
    // them in a follow-up rebalance.
    if (this.cooperative && revoked.length > 0) {
      this.revoking = applied;
      void applied.then(() => {
        if (this.current === assignment) return this.enforceRebalance();
      });
    }
  }

  private async assign(
    members: Parameters<GroupConsumerOptions['assignor']['assign']>[0]['members'],
  ) {
    const topics = [...new Set(members.flatMap((m) => m.topics))];
    const metadata = await this.member!.metadata({ topics, forceUpdate: true });
    const partitionCounts = new Map<string, number>();
    for (const topic of topics) {
      const count = metadata.topics.get(topic)?.partitionsCount;
      if (count) partitionCounts.set(topic, count);
    }
    return this.options.assignor.assign({ members, partitionCounts });
  }
}

/**
 * The platformatic group consumers of a client's options (brokers, TLS, SASL, client id),
 * logging to `logger` when given.
 */
export function platformaticGroupConsumerFactory(
  clientOptions: BaseOptions,
  logger?: StreamsLogger,
  retry: ClusterRetry = platformaticClusterRetry(),
): GroupConsumerFactory {
  return (options) => new PlatformaticGroupConsumer(clientOptions, options, logger, retry);
}

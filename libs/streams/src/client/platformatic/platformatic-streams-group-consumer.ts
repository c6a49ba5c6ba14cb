import { Consumer, kGetApi, type BaseOptions, type Connection } from '@platformatic/kafka';
import {
  decodeInfo,
  encodeInfo,
  LATEST_OFFSET,
  type SubscriptionInfo,
} from '../../cluster/internals/assignment-info';
import { CommitFailedError } from '../../errors/internals/commit-failed.error';
import { RebalanceInProgressError } from '../../errors/internals/rebalance-in-progress.error';
import type { StreamsLogger } from '../../logging/logger';
import type {
  GroupConsumer,
  GroupConsumerFactory,
  GroupConsumerOptions,
  GroupConsumerStart,
  GroupMetadata,
  StreamsGroupSpec,
  TopicPartitionOffset,
  TopicPartitions,
} from '../group-consumer';
import { platformaticGroupError } from './platformatic-group-errors';
import { bridgePlatformaticLogs } from './platformatic-log-bridge';
import { PlatformaticPartitionFetcher } from './platformatic-partition-fetcher';
import { bounded } from './bounded-wait';
import { platformaticClusterRetry } from './platformatic-transient-faults';
import type { ClusterRetry } from '../cluster-retry/cluster-retry';
import { offsetCommitTopics } from './platformatic-records';
import {
  QUERY_ENDPOINT_TAG,
  StreamsGroupAssignmentInfo,
  streamsTopologyOf,
} from './streams-group/streams-group-assignment';
import { StreamsGroupCoordinator } from './streams-group/streams-group-coordinator';
import type { StreamsGroupStatusOutcome } from './streams-group/streams-group-errors';
import { StreamsGroupStatusCode } from './streams-group/streams-group-heartbeat-response';
import { StreamsGroupMember } from './streams-group/streams-group-member';
import { NO_TASKS, type StreamsTaskSet } from './streams-group/streams-task-set';
import { endpointOf, taskOffset, type TaskOffset } from './streams-group/streams-group-structs';
import { PlatformaticHeartbeatCoordinatorCheck } from './platformatic-heartbeat-coordinator-check';

/** The assignment the engine was given last. */
interface Delivered {
  readonly epoch: number;
  readonly tasks: StreamsTaskSet;
  readonly partitions: readonly TopicPartitions[];
}

/** How often the changelog end offsets reported to the coordinator are read again. */
const END_OFFSETS_REFRESH_MS = 10_000;

/**
 * The @platformatic/kafka adapter of {@link GroupConsumer} for `groupProtocol: 'streams'`
 * (Kafka's streams rebalance protocol, KIP-1071): a {@link StreamsGroupMember} joins the
 * application's streams group with the engine's topology and the broker assigns the tasks
 * (`options.assignor.assign` is not used; its subscription user data gives the member's
 * process id, endpoints, task offsets and shutdown request). Each assignment reaches the engine
 * as an {@link AssignmentInfo} through `GroupAssignment.userData()`, with the host map built
 * from the coordinator's routing map ({@link StreamsGroupAssignmentInfo}); the generation id is
 * the member epoch. A new assignment that takes tasks away is applied in two steps: the engine
 * commits (`onRevoking`) and is given the assignment without those tasks, and once it applied
 * it (closed them) the member reports them released; then the engine gets the whole new
 * assignment. Active partitions are fetched as the classic adapter fetches them
 * ({@link PlatformaticPartitionFetcher}); offsets are committed with the member id and epoch.
 * There is no probing rebalance (`enforceRebalance` does nothing): the coordinator moves
 * tasks when it sees fit.
 */
export class PlatformaticStreamsGroupConsumer implements GroupConsumer {
  private client: Consumer<Buffer, Buffer, Buffer, Buffer> | undefined;
  private member: StreamsGroupMember | undefined;
  private coordinator: StreamsGroupCoordinator | undefined;
  private fetcher: PlatformaticPartitionFetcher | undefined;
  private info: StreamsGroupAssignmentInfo | undefined;
  private start$: GroupConsumerStart | undefined;
  private current: Delivered | undefined;
  private rebalancing = false;
  private closing = false;
  private shutdown = false;
  private loop: Promise<void> = Promise.resolve();
  private serial: Promise<void> = Promise.resolve();
  private applied: (() => void)[] = [];
  private endOffsets: Record<string, number> = {};
  private endOffsetsAt = 0;

  private readonly heartbeats: PlatformaticHeartbeatCoordinatorCheck;

  constructor(
    private readonly clientOptions: BaseOptions,
    private readonly options: GroupConsumerOptions,
    private readonly logger?: StreamsLogger,
    private readonly retry: ClusterRetry = platformaticClusterRetry(),
  ) {
    this.heartbeats = PlatformaticHeartbeatCoordinatorCheck.of(options.groupId, clientOptions);
  }

  get groupId(): string {
    return this.options.groupId;
  }

  async start(start: GroupConsumerStart): Promise<void> {
    const { options } = this;
    const spec = options.streamsGroup;
    if (!spec) throw new Error('the streams group consumer needs the topology (streamsGroup)');
    this.start$ = start;
    const client = new Consumer<Buffer, Buffer, Buffer, Buffer>({
      ...this.clientOptions,
      groupId: options.groupId,
      autocommit: false,
    });
    this.client = client;
    if (this.logger) bridgePlatformaticLogs(client, this.logger);
    const coordinator = new StreamsGroupCoordinator(client, options.groupId);
    this.coordinator = coordinator;
    const info = new StreamsGroupAssignmentInfo(() => spec.subtopologies(), coordinator);
    this.info = info;
    this.fetcher = new PlatformaticPartitionFetcher(
      client,
      this.clientOptions,
      options,
      this.logger,
      this.retry,
      {
        assignment: () => this.current,
        active: () => !this.rebalancing && !this.closing,
        closing: () => this.closing,
        handleBatch: start.handleBatch,
        onFetch: () => start.listener.onFetch(),
        onFailed: (error) => this.failed(error),
      },
    );
    const self = this.subscription();
    this.member = new StreamsGroupMember(
      coordinator,
      {
        topology: () => streamsTopologyOf(spec.subtopologies()),
        processId: self.processId,
        userEndpoint: endpointOf(self.endpoint),
        clientTags: self.queryEndpoint
          ? [{ key: QUERY_ENDPOINT_TAG, value: self.queryEndpoint }]
          : [],
        // Static membership (KIP-1071 in Kafka 4.4): leaves with epoch -2, keeping the tasks.
        instanceId: options.groupInstanceId ?? null,
        rebalanceTimeoutMs: options.rebalanceTimeoutMs,
        heartbeatIntervalMs: options.heartbeatIntervalMs,
        classify: (error) => this.retry.classify(error),
      },
      {
        reconcile: (epoch, tasks) => this.serially(() => this.reconcile(epoch, tasks)),
        lost: (reason) => this.serially(() => this.lost(reason)),
        endpoints: (endpoints) => {
          info.setEndpoints(endpoints);
          // The engine learns a new host map with its assignment: give it again.
          void this.serially(() => this.redeliver());
        },
        statuses: (outcomes) => this.onStatuses(outcomes),
        failed: (error) => this.failed(error),
        heartbeat: () => {
          this.heartbeats.answered(coordinator.coordinatorId);
          start.listener.onHeartbeat?.();
        },
        taskOffsets: () => this.taskOffsets(spec),
        shutdownRequested: () => this.subscription().shutdownRequested === true,
      },
    );
    this.markRebalancing();
    await this.member.start();
    this.loop = this.fetcher.run();
  }

  pause(partitions: readonly TopicPartitions[]): void {
    this.fetcher?.pause(partitions);
  }

  resume(partitions: readonly TopicPartitions[]): void {
    this.fetcher?.resume(partitions);
    // The engine resumes an assignment's input once it applied it.
    for (const done of this.applied.splice(0)) done();
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
    const client = this.client;
    const coordinator = this.coordinator;
    if (!member || !client || !coordinator || offsets.length === 0) return;
    if (!generation || member.memberEpoch <= 0) {
      throw new CommitFailedError(this.groupId, {
        cause: new RebalanceInProgressError(this.groupId),
      });
    }
    try {
      const api = await new Promise<(...args: unknown[]) => void>((resolve, reject) =>
        client[kGetApi]('OffsetCommit', (e, a) => (e ? reject(e) : resolve(a as never))),
      );
      // A coordinator that moved or died is looked up again (the streams group's heartbeat
      // finds it too), the commit retried within default.api.timeout.ms.
      await this.retry.run({
        name: `OffsetCommit of streams group ${this.groupId}`,
        bound: 'api',
        attempt: async () => {
          const connection: Connection = await coordinator.connection();
          await new Promise<void>((resolve, reject) =>
            api(
              connection,
              this.groupId,
              member.memberEpoch,
              member.memberId,
              this.options.groupInstanceId ?? null,
              offsetCommitTopics(offsets),
              (e: Error | null) => (e ? reject(e) : resolve()),
            ),
          );
        },
        onFault: (fault) => {
          if (fault.kind !== 'busy') coordinator.forget();
        },
        stopped: () => this.closing,
      });
    } catch (error) {
      const groupError = platformaticGroupError(this.groupId, member.memberId, error);
      throw groupError ? new CommitFailedError(this.groupId, { cause: groupError }) : error;
    }
  }

  groupMetadata(): GroupMetadata | undefined {
    const current = this.current;
    const member = this.member;
    return current && member
      ? {
          groupId: this.groupId,
          memberId: member.memberId,
          generationId: current.epoch,
          groupInstanceId: this.options.groupInstanceId ?? null,
        }
      : undefined;
  }

  /** No probing rebalances under the streams protocol: the coordinator moves tasks itself. */
  async enforceRebalance(): Promise<void> {}

  async rejoin(): Promise<void> {
    const member = this.member;
    if (!member || this.closing) return;
    // A shutdown request travels with the next heartbeat; anything else starts afresh.
    if (this.subscription().shutdownRequested) member.wake();
    else await member.rejoin();
  }

  /** See `GroupConsumer.confirmHeartbeatCoordinator` ({@link PlatformaticHeartbeatCoordinatorCheck}). */
  confirmHeartbeatCoordinator(): Promise<void> {
    return this.heartbeats.confirm();
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    await this.heartbeats.close();
    for (const done of this.applied.splice(0)) done();
    await this.loop.catch(() => undefined);
    await this.member?.close();
    await this.fetcher?.close();
    await (this.client?.close(true) as Promise<void> | undefined)?.catch(() => undefined);
  }

  private subscription(): SubscriptionInfo {
    return decodeInfo<SubscriptionInfo>(this.options.assignor.subscriptionUserData());
  }

  private serially(fn: () => Promise<void>): Promise<void> {
    const run = this.serial.then(fn);
    this.serial = run.catch(() => undefined);
    return run;
  }

  /** Applies the broker's assignment: revoked tasks first (committed, closed), then the rest. */
  private async reconcile(epoch: number, tasks: StreamsTaskSet): Promise<void> {
    if (this.closing) return;
    const previous = this.current?.tasks ?? NO_TASKS;
    const kept = previous.active.filter((t) => tasks.active.includes(t));
    const revoking = kept.length < previous.active.length;
    if (revoking) {
      this.markRebalancing();
      await bounded(this.start$!.listener.onRevoking(), this.options.rebalanceTimeoutMs / 2);
      await this.deliver(epoch, { ...tasks, active: kept }, true);
    }
    if (!revoking || kept.length < tasks.active.length) await this.deliver(epoch, tasks, false);
  }

  /** The member is out of the group: its tasks are given up before it joins again. */
  private async lost(reason: string): Promise<void> {
    this.logger?.warn(`streams group ${this.groupId}: tasks lost (${reason}); joining again`);
    this.markRebalancing();
    await this.deliver(this.current?.epoch ?? 0, NO_TASKS, true);
    this.markRebalancing();
  }

  private async redeliver(): Promise<void> {
    const current = this.current;
    if (current && !this.rebalancing && !this.closing) {
      await this.deliver(current.epoch, current.tasks, false);
    }
  }

  /** Gives the engine an assignment; waits until it applied it when asked (bounded). */
  private async deliver(epoch: number, tasks: StreamsTaskSet, wait: boolean): Promise<void> {
    if (this.closing) return;
    const partitions = this.info!.partitionsOf(tasks.active);
    const current = { epoch, tasks, partitions };
    this.current = current;
    this.fetcher!.retain(partitions);
    this.rebalancing = false;
    // The new partitions' committed offsets first, stable (a former owner's open transaction
    // resolved), then the engine, whose tasks restore only then.
    if (!(await this.fetcher!.positionStably(partitions))) return;
    if (this.closing || this.current !== current) return;
    const applied = wait ? new Promise<void>((resolve) => this.applied.push(resolve)) : undefined;
    const self = this.subscription();
    const info = this.info!.info(self, tasks, this.shutdown);
    this.start$!.listener.onAssigned({
      memberId: this.member!.memberId,
      generationId: epoch,
      partitions,
      userData: async () => encodeInfo(await info),
    });
    if (applied) await bounded(applied, this.options.rebalanceTimeoutMs);
  }

  private onStatuses(outcomes: readonly StreamsGroupStatusOutcome[]): void {
    for (const { error, fatal } of outcomes) {
      if (fatal && error) {
        this.failed(error);
        return;
      }
      if (error) this.logger?.warn(error.message);
    }
    const shutdown = outcomes.some(
      (o) => o.status.statusCode === StreamsGroupStatusCode.SHUTDOWN_APPLICATION,
    );
    if (shutdown && !this.shutdown) {
      this.shutdown = true;
      // Every member learns it with its assignment, as under the classic protocol.
      void this.serially(async () => {
        const current = this.current;
        if (!this.closing)
          await this.deliver(current?.epoch ?? 0, current?.tasks ?? NO_TASKS, false);
      });
    }
  }

  /** Local offset sums (running actives: their changelog end) and end-offset sums per task. */
  private async taskOffsets(
    spec: StreamsGroupSpec,
  ): Promise<{ offsets: TaskOffset[]; endOffsets: TaskOffset[] }> {
    if (Date.now() - this.endOffsetsAt >= END_OFFSETS_REFRESH_MS) {
      this.endOffsetsAt = Date.now();
      this.endOffsets = await bounded(spec.taskEndOffsetSums(), 1000).then(
        (sums) => sums ?? this.endOffsets,
        () => this.endOffsets,
      );
    }
    const sums = this.subscription().taskOffsetSums;
    const offsets = Object.entries(sums).flatMap(([task, sum]) => {
      const offset = sum === LATEST_OFFSET ? this.endOffsets[task] : sum;
      return offset === undefined || offset < 0 ? [] : [taskOffset(task, offset)];
    });
    const endOffsets = Object.entries(this.endOffsets).map(([task, sum]) => taskOffset(task, sum));
    return { offsets, endOffsets };
  }

  private markRebalancing(): void {
    if (this.rebalancing || this.closing) return;
    this.rebalancing = true;
    this.start$?.listener.onRebalancing();
  }

  private failed(error: Error): void {
    if (!this.closing) this.start$?.listener.onFailed(error);
  }
}

/**
 * The streams-protocol group consumers of a client's options (brokers, TLS, SASL, client id),
 * logging to `logger` when given.
 */
export function platformaticStreamsGroupConsumerFactory(
  clientOptions: BaseOptions,
  logger?: StreamsLogger,
  retry: ClusterRetry = platformaticClusterRetry(),
): GroupConsumerFactory {
  return (options) => new PlatformaticStreamsGroupConsumer(clientOptions, options, logger, retry);
}

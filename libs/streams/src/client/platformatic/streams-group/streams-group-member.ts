import { randomUUID } from 'node:crypto';
import type { FaultClassifier } from '../../cluster-retry/transient-fault';
import {
  isCoordinatorError,
  isCoordinatorLookupError,
  type StreamsGroupCoordinator,
} from './streams-group-coordinator';
import {
  heartbeatsTimedOut,
  streamsGroupErrorAction,
  streamsGroupErrorName,
  streamsGroupRejectedError,
  streamsGroupStatusOutcome,
  type StreamsGroupStatusOutcome,
} from './streams-group-errors';
import type {
  StreamsGroupHeartbeatRequest,
  StreamsTopology,
} from './streams-group-heartbeat-request';
import type {
  EndpointToPartitions,
  StreamsGroupHeartbeatResponse,
} from './streams-group-heartbeat-response';
import type { KeyValue, StreamsEndpoint, TaskOffset } from './streams-group-structs';
import {
  NO_TASKS,
  sameTasks,
  taskIdsFor,
  taskIdsOf,
  type StreamsTaskSet,
} from './streams-task-set';

/** Who a member is in its streams group. */
export interface StreamsGroupMemberOptions {
  /** The application's topology, read at every join (epoch 0). */
  topology(): StreamsTopology;
  readonly processId: string;
  /** `application.server`, when the instance serves interactive queries. */
  readonly userEndpoint: StreamsEndpoint | null;
  readonly clientTags: readonly KeyValue[];
  /** The static member id (`group.instance.id`), `null` for a dynamic member. */
  readonly instanceId: string | null;
  readonly rebalanceTimeoutMs: number;
  /** The heartbeat interval until the broker names its own. */
  readonly heartbeatIntervalMs: number;
  /**
   * The client's transient faults: a heartbeat failing with one for the rebalance timeout fails
   * the member with a retriable `ClusterFaultTimeoutError` (the thread is replaced), not as it is.
   */
  readonly classify?: FaultClassifier;
}

/** What the member asks of its owner (the adapter). Callbacks must not throw. */
export interface StreamsGroupMemberListener {
  /**
   * The broker's assignment of this member changed (its tasks, or its epoch): give up the
   * tasks no longer listed (committing them first), take the new ones. The member reports
   * the new set as owned once the promise settles, so the broker hands revoked tasks to others
   * only then; until then it reports the previous set.
   */
  reconcile(epoch: number, tasks: StreamsTaskSet): Promise<void>;
  /** The member is out of the group (fenced, or unknown to it): its tasks are lost. */
  lost(reason: string): Promise<void>;
  /** The routing map changed (every instance's endpoint and partitions). */
  endpoints(endpoints: readonly EndpointToPartitions[]): void;
  /** The group's statuses changed (an empty list: none holds any more). */
  statuses(outcomes: readonly StreamsGroupStatusOutcome[]): void;
  /** The member stopped for good. */
  failed(error: Error): void;
  /** The coordinator answered a heartbeat without an error: the member is still in the group. */
  heartbeat?(): void;
  /** Cumulative changelog offsets and end offsets per task, reported on the broker's interval. */
  taskOffsets(): Promise<{ offsets: TaskOffset[]; endOffsets: TaskOffset[] }>;
  /** Whether this instance asks the whole application to shut down. */
  shutdownRequested(): boolean;
}

/** Statuses under which the group assigns nothing: missing, mis-partitioned, internal topics being created, delayed. */
const NOT_READY = new Set<number>([1, 2, 3, 5]);

/** The fields of a leaving heartbeat: nothing to report. */
const LEAVING = {
  activeTasks: null,
  standbyTasks: null,
  warmupTasks: null,
  taskOffsets: null,
  taskEndOffsets: null,
} as const;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A member of a streams group (Kafka's streams rebalance protocol, KIP-1071): the broker
 * assigns tasks, the member heartbeats. It joins with epoch 0 and the topology (with its
 * process id, endpoint, client tags and instance id), then heartbeats on the interval the
 * broker names, reporting the tasks it owns and, on the broker's task offset interval, its
 * task offsets. A response that changes its tasks (`null` lists are unchanged) or its epoch is
 * reconciled through the listener, one at a time, and acknowledged with an immediate
 * heartbeat that reports the new set: revoked tasks are released before the broker gives them
 * to others (the rule of KIP-1071). Fenced (`FENCED_MEMBER_EPOCH`) or unknown
 * (`UNKNOWN_MEMBER_ID`): its tasks are lost and it joins again at epoch 0 with the same member
 * id. Coordinator errors and network errors are retried (failing the member once nothing
 * succeeded for the rebalance timeout); other error codes fail it
 * (`StreamsGroupRejectedError`). Closing leaves the group: epoch -1, or -2 for a static member
 * (its tasks wait for it until its session times out).
 */
export class StreamsGroupMember {
  /** Generated once: the member keeps it across rejoins. */
  readonly memberId = randomUUID();
  private epoch = 0;
  private owned: StreamsTaskSet = NO_TASKS;
  private target: StreamsTaskSet = NO_TASKS;
  private reconciledEpoch = -1;
  private reconciledTarget: StreamsTaskSet = NO_TASKS;
  private work: Promise<void> = Promise.resolve();
  private endpointEpoch = 0;
  private intervalMs: number;
  private taskOffsetIntervalMs = 0;
  private offsetsSentAt = 0;
  private lastSuccess = Date.now();
  private stopped = false;
  private dead = false;
  private wakeUp: (() => void) | undefined;
  private wakePending = false;
  /** The group cannot assign yet (topics missing, internal topics being created, delayed). */
  private notReady = false;
  private loop: Promise<void> = Promise.resolve();

  constructor(
    private readonly coordinator: StreamsGroupCoordinator,
    private readonly options: StreamsGroupMemberOptions,
    private readonly listener: StreamsGroupMemberListener,
  ) {
    this.intervalMs = options.heartbeatIntervalMs;
  }

  get groupId(): string {
    return this.coordinator.groupId;
  }

  /** The member's epoch: 0 while joining. */
  get memberEpoch(): number {
    return this.epoch;
  }

  /**
   * Joins the group (the first heartbeat) and starts heartbeating. A coordinator not found or
   * not ready yet (a new cluster creates `__consumer_offsets` at the first group) is asked
   * again for up to the rebalance timeout; `UNKNOWN_SERVER_ERROR` 10 times (2 s).
   *
   * @throws StreamsGroupRejectedError when the coordinator refuses the member; the client's
   *   error when the coordinator cannot be reached.
   */
  async start(): Promise<void> {
    const deadline = Date.now() + this.options.rebalanceTimeoutMs;
    for (let unknownServerErrors = 0; ;) {
      let response: StreamsGroupHeartbeatResponse;
      try {
        response = await this.coordinator.heartbeat(await this.request());
      } catch (error) {
        if (!isCoordinatorLookupError(error) || Date.now() > deadline) throw error;
        this.coordinator.forget();
        await sleep(200);
        continue;
      }
      const code = response.errorCode;
      const retry = isCoordinatorError(code)
        ? Date.now() <= deadline
        : streamsGroupErrorAction(code) === 'retry' && ++unknownServerErrors <= 10;
      if (retry) {
        await sleep(200);
        continue;
      }
      if (code !== 0) throw streamsGroupRejectedError(this.groupId, code, response.errorMessage);
      this.handle(response);
      this.loop = this.run();
      return;
    }
  }

  /** Sends the next heartbeat now (e.g. to carry a shutdown request). */
  wake(): void {
    if (this.wakeUp) this.wakeUp();
    else this.wakePending = true;
  }

  /** Stops heartbeating and leaves the group. Never throws. */
  async close(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.wake();
    await this.loop;
    await this.work;
    if (this.epoch <= 0 || this.dead) return;
    const leaving = this.options.instanceId !== null ? -2 : -1;
    await this.coordinator
      .heartbeat({
        ...(await this.request()),
        ...LEAVING,
        memberEpoch: leaving,
        // A static member names itself when it leaves: the broker keeps its tasks for it.
        instanceId: this.options.instanceId,
      })
      .catch(() => undefined);
    this.epoch = leaving;
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopped && !this.dead) {
      const pending = this.wakePending;
      this.wakePending = false;
      if (!pending)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.intervalMs);
          this.wakeUp = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      this.wakeUp = undefined;
      if (this.stopped) return;
      try {
        const response = await this.coordinator.heartbeat(await this.request());
        failures = 0;
        await this.onResponse(response);
      } catch (error) {
        failures++;
        if (Date.now() - this.lastSuccess > this.options.rebalanceTimeoutMs) {
          const { classify, rebalanceTimeoutMs } = this.options;
          this.fail(
            heartbeatsTimedOut(this.groupId, rebalanceTimeoutMs, failures, error, classify),
          );
          return;
        }
        await sleep(Math.min(1000, this.intervalMs));
      }
    }
  }

  private async onResponse(response: StreamsGroupHeartbeatResponse): Promise<void> {
    if (response.errorCode === 0) {
      this.lastSuccess = Date.now();
      this.handle(response);
      return;
    }
    switch (streamsGroupErrorAction(response.errorCode)) {
      case 'retry':
        // Retried as network errors are: for the rebalance timeout at most.
        if (Date.now() - this.lastSuccess > this.options.rebalanceTimeoutMs) {
          const { errorCode, errorMessage } = response;
          this.fail(streamsGroupRejectedError(this.groupId, errorCode, errorMessage));
          return;
        }
        await sleep(Math.min(1000, this.intervalMs));
        this.wake();
        return;
      case 'rejoin':
        this.lastSuccess = Date.now();
        await this.outOfGroup(streamsGroupErrorName(response.errorCode));
        return;
      case 'fatal':
        this.fail(
          streamsGroupRejectedError(this.groupId, response.errorCode, response.errorMessage),
        );
    }
  }

  /**
   * Leaves the group (epoch -1) and joins it again as the same member, its tasks given up
   * first (lost): the coordinator assigns it afresh.
   */
  async rejoin(): Promise<void> {
    if (this.stopped || this.dead) return;
    this.serially(async () => {
      await this.listener.lost('rejoin requested');
      if (this.epoch > 0) {
        await this.coordinator
          .heartbeat({ ...(await this.request()), ...LEAVING, memberEpoch: -1 })
          .catch(() => undefined);
      }
      this.reset();
    });
    await this.work;
    this.wake();
  }

  /** The member is out of the group: its tasks are lost; it joins again at epoch 0. */
  private async outOfGroup(reason: string): Promise<void> {
    this.serially(async () => {
      await this.listener.lost(reason);
      this.reset();
    });
    await this.work;
    this.wake();
  }

  /** Back to a member that joins at epoch 0, owning nothing. */
  private reset(): void {
    this.owned = NO_TASKS;
    this.target = NO_TASKS;
    this.reconciledTarget = NO_TASKS;
    this.reconciledEpoch = -1;
    this.epoch = 0;
    this.endpointEpoch = 0;
    this.offsetsSentAt = 0;
  }

  private handle(response: StreamsGroupHeartbeatResponse): void {
    this.listener.heartbeat?.();
    this.epoch = response.memberEpoch;
    if (response.heartbeatIntervalMs > 0) this.intervalMs = response.heartbeatIntervalMs;
    this.taskOffsetIntervalMs = response.taskOffsetIntervalMs;
    if (response.status !== null) {
      const sources = this.options.topology().subtopologies.flatMap((s) => s.sourceTopics);
      this.notReady = response.status.some((s) => NOT_READY.has(s.statusCode));
      this.listener.statuses(
        response.status.map((s) => streamsGroupStatusOutcome(this.groupId, s, sources)),
      );
    }
    if (response.partitionsByUserEndpoint !== null) {
      this.endpointEpoch = response.endpointInformationEpoch;
      this.listener.endpoints(response.partitionsByUserEndpoint);
    }
    this.target = {
      active: taskIdsOf(response.activeTasks) ?? this.target.active,
      standby: taskIdsOf(response.standbyTasks) ?? this.target.standby,
      warmup: taskIdsOf(response.warmupTasks) ?? this.target.warmup,
    };
    if (this.epoch > 0) this.reconcileIfChanged();
  }

  /** Reconciles the latest target unless it (and its epoch) is what was reconciled last. */
  private reconcileIfChanged(): void {
    const epoch = this.epoch;
    const target = this.target;
    if (epoch === this.reconciledEpoch && sameTasks(target, this.reconciledTarget)) return;
    // The group is not ready: its empty assignment is no assignment yet (nothing to apply).
    if (this.notReady && sameTasks(target, NO_TASKS) && sameTasks(this.owned, NO_TASKS)) return;
    this.reconciledEpoch = epoch;
    this.reconciledTarget = target;
    this.serially(async () => {
      // A later response may have moved the target again: reconcile to the newest.
      if (this.stopped || this.reconciledTarget !== target) return;
      await this.listener.reconcile(epoch, target);
      this.owned = target;
      this.wake();
    });
  }

  private serially(fn: () => Promise<void>): void {
    this.work = this.work.then(fn).catch((error: unknown) => {
      this.fail(error instanceof Error ? error : new Error(String(error)));
    });
  }

  private fail(error: Error): void {
    if (this.dead || this.stopped) return;
    this.dead = true;
    this.wake();
    this.listener.failed(error);
  }

  private async request(): Promise<StreamsGroupHeartbeatRequest> {
    const { options } = this;
    const joining = this.epoch === 0;
    const offsetsDue =
      joining || Date.now() - this.offsetsSentAt >= Math.max(1000, this.taskOffsetIntervalMs);
    let offsets: { offsets: TaskOffset[]; endOffsets: TaskOffset[] } | null = null;
    if (offsetsDue) {
      offsets = await this.listener.taskOffsets().catch(() => null);
      if (offsets) this.offsetsSentAt = Date.now();
    }
    return {
      groupId: this.groupId,
      memberId: this.memberId,
      memberEpoch: this.epoch,
      endpointInformationEpoch: this.endpointEpoch,
      instanceId: joining ? options.instanceId : null,
      rackId: null,
      rebalanceTimeoutMs: joining ? options.rebalanceTimeoutMs : -1,
      topology: joining ? options.topology() : null,
      activeTasks: taskIdsFor(this.owned.active),
      standbyTasks: taskIdsFor(this.owned.standby),
      warmupTasks: taskIdsFor(this.owned.warmup),
      processId: joining ? options.processId : null,
      userEndpoint: joining ? options.userEndpoint : null,
      clientTags: joining ? options.clientTags : null,
      taskOffsets: offsets?.offsets ?? null,
      taskEndOffsets: offsets?.endOffsets ?? null,
      shutdownApplication: this.listener.shutdownRequested(),
    };
  }
}

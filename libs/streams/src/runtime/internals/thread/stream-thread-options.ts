import type { AssignmentInfo } from '../../../cluster/internals/assignment-info';
import type { ActiveTaskManager } from '../active-tasks/active-task-manager';
import type {
  GroupConsumerFactory,
  GroupConsumerOptions,
  GroupMetadata,
  StreamsGroupSpec,
} from '../../../client/group-consumer';
import type { StandbyTaskManager } from '../standby/standby-task-manager';
import {
  streamsGroupAssignor,
  type StreamsAssignorContext,
} from '../assignment/streams-partition-assignor';
import type { ResolvedStreamsConfig } from '../../streams-config';
import type { StateLogger } from '../../../logging/logger';
import type { ThreadMetrics } from '../metrics/thread-metrics';

/** What the thread tells the client that owns it. */
export interface StreamThreadListener {
  /** The group started rebalancing (this member learned of it). */
  onRebalancing(): void;
  /** A new assignment was received; tasks are being created and restored. */
  onAssignment(info: AssignmentInfo): void;
  /** Every active task of the current assignment is restored and processing. */
  onRunning(): void;
  /** Processing failed; the thread stopped consuming. */
  onError(error: Error): void;
  /** A member asked the whole application to shut down (SHUTDOWN_APPLICATION). */
  onShutdownRequested(): void;
}

/** Options of a {@link StreamThread}. */
export interface StreamThreadOptions {
  /** Creates the thread's member of the application's group (the client's adapter). */
  readonly groupConsumers: GroupConsumerFactory;
  readonly config: ResolvedStreamsConfig;
  readonly sourceTopics: readonly string[];
  readonly tasks: ActiveTaskManager;
  readonly standbys: StandbyTaskManager;
  readonly assignor: StreamsAssignorContext;
  readonly listener: StreamThreadListener;
  readonly logger: StateLogger;
  /** Set under `groupProtocol: 'streams'`: the topology the group's coordinator assigns from. */
  readonly streamsGroup?: StreamsGroupSpec;
  /** The thread's sensors (its polls here; its tasks record the rest). */
  readonly threadMetrics?: ThreadMetrics;
}

/**
 * The options of a stream thread's group consumer: the application's group, the streams
 * assignor (cooperative or eager, as configured) whose subscription names the generation the
 * member holds its tasks in (`tasksGeneration`: the leader trusts the newest claim on a task),
 * the consumer timeouts, and under `groupProtocol: 'streams'` the topology for the broker.
 */
export function threadConsumerOptions(
  {
    config,
    assignor,
    streamsGroup,
  }: Pick<StreamThreadOptions, 'config' | 'assignor' | 'streamsGroup'>,
  tasksGeneration: () => GroupMetadata | undefined,
): GroupConsumerOptions {
  return {
    groupId: config.applicationId,
    assignor: streamsGroupAssignor(
      {
        ...assignor,
        subscription: () => ({
          ...assignor.subscription(),
          ownedGeneration: tasksGeneration()?.generationId,
        }),
      },
      { cooperative: config.rebalanceProtocol === 'cooperative' },
    ),
    rebalanceProtocol: config.rebalanceProtocol,
    sessionTimeoutMs: config.sessionTimeoutMs,
    heartbeatIntervalMs: config.heartbeatIntervalMs,
    rebalanceTimeoutMs: Math.max(60_000, config.sessionTimeoutMs),
    maxWaitTimeMs: Math.min(500, Math.max(10, config.commitIntervalMs)),
    maxBytesPerPartition: config.maxPartitionFetchBytes,
    ...(config.groupInstanceId !== undefined ? { groupInstanceId: config.groupInstanceId } : {}),
    ...(streamsGroup ? { streamsGroup } : {}),
  };
}

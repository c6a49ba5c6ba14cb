import type { AssignmentInfo } from '../../cluster/internals/assignment-info';
import type { ActiveTaskManager } from './active-task-manager';
import type { GroupConsumerFactory, StreamsGroupSpec } from './group-consumer';
import type { StandbyTaskManager } from './standby-task-manager';
import type { StreamsAssignorContext } from './streams-partition-assignor';
import type { ResolvedStreamsConfig } from '../streams-config';
import type { StateLogger } from '../state-logger';

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
}

import { StreamsProcessingError } from '../../../errors/streams-processing.error';
import { UnknownStateStoreError } from '../../../errors/unknown-state-store.error';
import { globalStoresOf } from '../../../processor/internals/internal-config';
import type {
  DroppedRecordReason,
  ProcessorContext,
  RecordMetadata,
} from '../../../processor/processor-context';
import { PunctuationType, type Cancellable, type Punctuator } from '../../../processor/punctuation';
import type { Record } from '../../../processor/record';
import type { StateStore } from '../../../processor/state-store';
import type { TaskId } from '../../../processor/task-id';
import type { ResolvedStreamsConfig } from '../../streams-config';
import type { PunctuationSchedule } from './punctuation-schedule';
import type { TaskProcessorNode } from './task-processor-node';

/** What a task's processor contexts read from and do through their task. */
export interface TaskContextHost {
  readonly id: TaskId;
  readonly config: ResolvedStreamsConfig;
  /** Where the record being processed came from; `undefined` when there is none. */
  recordMetadata(): RecordMetadata | undefined;
  /** Runs `child` on `record` (in its node context, with its error handling). */
  process(child: TaskProcessorNode, record: Record<unknown, unknown>): void;
  /** The task's own store named `name`. */
  store(name: string): StateStore | undefined;
  /** Schedules a punctuator of a node (the task's `PunctuationSchedule.schedule`). */
  schedule: PunctuationSchedule['schedule'];
  requestCommit(): void;
  streamTime(): number;
  /** The wall-clock time the processing loop last read. */
  wallClock(): number;
  /** Reads the clock now. */
  now(): number;
  recordDropped(reason: DroppedRecordReason | undefined): void;
}

/**
 * The {@link ProcessorContext} a task gives `node`'s processor: it forwards to `node`'s
 * children, reaches the stores connected to `node` (and the global stores), schedules
 * punctuators as `node`, and asks its task for a commit.
 */
export function taskProcessorContext(
  node: TaskProcessorNode,
  host: TaskContextHost,
): ProcessorContext<unknown, unknown> {
  const def = node.def;
  const { config, id } = host;
  return {
    applicationId: config.applicationId,
    taskId: id,
    appConfigs: config as unknown as { readonly [name: string]: unknown },
    recordMetadata: () => host.recordMetadata(),
    forward: (record, childName) => {
      // Always this context's node: a cache flush can forward while another node runs.
      if (childName !== undefined) {
        const child = node.childrenByName.get(childName);
        if (!child) {
          throw new StreamsProcessingError(
            `processor '${node.def.name}' has no child named '${childName}'`,
            id.toString(),
          );
        }
        host.process(child, record as Record<unknown, unknown>);
        return;
      }
      for (const child of node.children) host.process(child, record as Record<unknown, unknown>);
    },
    getStateStore: <S>(name: string): S => {
      const own = def.kind === 'processor' && def.stores.has(name);
      // Global stores need no connection (as in Kafka Streams): the host hands them over.
      const store = own ? host.store(name) : globalStoresOf(config)?.get(name);
      if (!store) {
        throw new UnknownStateStoreError(
          `processor '${def.name}' is not connected to a state store named '${name}' (connect it in the topology)`,
        );
      }
      return store as unknown as S;
    },
    schedule: (intervalMs: number, type: PunctuationType, punctuator: Punctuator): Cancellable => {
      const now = type === PunctuationType.STREAM_TIME ? host.streamTime() : host.now();
      return host.schedule(def.name, intervalMs, type, punctuator, now);
    },
    commit: () => host.requestCommit(),
    currentStreamTimeMs: () => host.streamTime(),
    currentSystemTimeMs: () => host.wallClock(),
    hasChildren: () => node.children.length > 0,
    recordDropped: (reason) => host.recordDropped(reason),
  };
}

import { encodeInfo } from '../src/cluster/internals/assignment-info';
import type { GroupAssignment, GroupConsumer } from '../src/client/group-consumer';
import type { StreamThreadOptions } from '../src/runtime/internals/thread/stream-thread';

/** The stream thread's listener, each callback a fresh `mock()` (e.g. `jest.fn`). */
export function threadCallbacks<F>(mock: () => F) {
  return {
    onRebalancing: mock(),
    onAssignment: mock(),
    onRunning: mock(),
    onError: mock(),
    onShutdownRequested: mock(),
  };
}

/**
 * A stream thread's options over doubles: one group consumer (reading topic `input`), or the
 * consumer factory given, the task manager, listener and standby manager given (standbys that
 * do nothing by default), the logger given (quiet by default) and 100 ms commits.
 */
export function streamThreadOptions(parts: {
  readonly consumer?: unknown;
  readonly groupConsumers?: unknown;
  readonly tasks: unknown;
  readonly listener: unknown;
  readonly protocol: 'eager' | 'cooperative';
  readonly standbys?: unknown;
  readonly logger?: { info(message: string): void; warn(message: string): void };
}): StreamThreadOptions {
  return {
    groupConsumers: parts.groupConsumers ?? (() => parts.consumer),
    config: {
      applicationId: 'app',
      sessionTimeoutMs: 10_000,
      heartbeatIntervalMs: 1_000,
      commitIntervalMs: 100,
      maxPartitionFetchBytes: 262_144,
      rebalanceProtocol: parts.protocol,
    },
    sourceTopics: ['input'],
    tasks: parts.tasks,
    standbys: parts.standbys ?? {
      closeAll: async () => undefined,
      assign: async () => undefined,
      release: async () => undefined,
    },
    assignor: {},
    listener: parts.listener,
    logger: parts.logger ?? { info: () => undefined, warn: () => undefined },
  } as unknown as StreamThreadOptions;
}

/**
 * Member `m-a`'s assignment (generation 2) of tasks `ids` of sub-topology 0, each reading the
 * partition of topic `input` its id names, with no standbys and no host map.
 */
export function assignmentOfTasks(ids: readonly string[]): GroupAssignment {
  return {
    memberId: 'm-a',
    generationId: 2,
    partitions: [{ topic: 'input', partitions: ids.map((id) => Number(id.split('_')[1])) }],
    userData: async () =>
      encodeInfo({
        version: 1,
        processId: 'p-a',
        active: [...ids],
        standby: [],
        warmup: [],
        hosts: [],
        probingRebalanceAtMs: 0,
      }),
  } as GroupAssignment;
}

/**
 * A group consumer double of member `m-a` in generation 2 of group `app`, whose commits,
 * enforced rebalances and close do nothing; `parts` gives its start (where a test takes the
 * thread's listener) and, when a test watches them, its pause and resume, and its lags.
 */
export function groupConsumerDouble(
  parts: Pick<GroupConsumer, 'start'> &
    Partial<Pick<GroupConsumer, 'pause' | 'resume' | 'currentLag' | 'rejoin'>>,
) {
  return {
    pause: () => undefined,
    resume: () => undefined,
    ...parts,
    groupMetadata: () => ({
      groupId: 'app',
      memberId: 'm-a',
      generationId: 2,
      groupInstanceId: null,
    }),
    commitOffsets: async () => undefined,
    enforceRebalance: async () => undefined,
    close: async () => undefined,
  };
}

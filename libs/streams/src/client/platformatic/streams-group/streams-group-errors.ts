// What a streams group's error codes and statuses mean to a member: the typed errors of the
// engine, and which ones the member survives.
import { ClusterFaultTimeoutError } from '../../../errors/cluster-fault-timeout.error';
import { IncorrectlyPartitionedTopicsError } from '../../../errors/incorrectly-partitioned-topics.error';
import { MissingInternalTopicsError } from '../../../errors/missing-internal-topics.error';
import { MissingSourceTopicError } from '../../../errors/missing-source-topic.error';
import { StaleTopologyError } from '../../../errors/stale-topology.error';
import { StreamsGroupRejectedError } from '../../../errors/streams-group-rejected.error';
import type { StreamsError } from '../../../errors/streams.error';
import type { FaultClassifier } from '../../cluster-retry/transient-fault';
import {
  StreamsGroupStatusCode,
  type StreamsGroupStatus,
} from './streams-group-heartbeat-response';

/** Kafka's names of the error codes a StreamsGroupHeartbeat answers. */
const ERROR_NAMES: Readonly<Record<number, string>> = {
  [-1]: 'UNKNOWN_SERVER_ERROR',
  14: 'COORDINATOR_LOAD_IN_PROGRESS',
  15: 'COORDINATOR_NOT_AVAILABLE',
  16: 'NOT_COORDINATOR',
  25: 'UNKNOWN_MEMBER_ID',
  29: 'TOPIC_AUTHORIZATION_FAILED',
  30: 'GROUP_AUTHORIZATION_FAILED',
  31: 'CLUSTER_AUTHORIZATION_FAILED',
  35: 'UNSUPPORTED_VERSION',
  42: 'INVALID_REQUEST',
  69: 'GROUP_ID_NOT_FOUND',
  81: 'GROUP_MAX_SIZE_REACHED',
  110: 'FENCED_MEMBER_EPOCH',
  111: 'UNRELEASED_INSTANCE_ID',
  130: 'STREAMS_INVALID_TOPOLOGY',
  131: 'STREAMS_INVALID_TOPOLOGY_EPOCH',
  132: 'STREAMS_TOPOLOGY_FENCED',
};

/** Kafka's name of an error code (the number as a string when unknown). */
export function streamsGroupErrorName(code: number): string {
  return ERROR_NAMES[code] ?? String(code);
}

/** What a member does about a heartbeat's error code. */
export type StreamsGroupErrorAction =
  /** Look up the coordinator again and retry after a backoff. */
  | 'retry'
  /** The member lost its tasks (fenced, or unknown to the group): give them up, join again at epoch 0. */
  | 'rejoin'
  /** Stop: the member cannot be part of the group as it is. */
  | 'fatal';

/**
 * The action for a non-zero error code. `UNKNOWN_SERVER_ERROR` is retried: a 4.4.0 broker
 * answers it to a member with a user endpoint while a source topic is missing from its
 * metadata, e.g. for a moment after the topic was created.
 */
export function streamsGroupErrorAction(code: number): StreamsGroupErrorAction {
  if (code === -1 || code === 14 || code === 15 || code === 16) return 'retry';
  if (code === 25 || code === 110) return 'rejoin';
  return 'fatal';
}

/** The typed error of a fatal error code. */
export function streamsGroupRejectedError(
  groupId: string,
  code: number,
  message: string | null,
): StreamsGroupRejectedError {
  return new StreamsGroupRejectedError(groupId, streamsGroupErrorName(code), message);
}

/** A group status as the engine sees it: its typed error, and whether the member must stop. */
export interface StreamsGroupStatusOutcome {
  readonly status: StreamsGroupStatus;
  /** Undefined for statuses that are not errors (shutdown requested, assignment delayed). */
  readonly error: StreamsError | undefined;
  /** The member cannot work while it lasts and it will not clear by itself. */
  readonly fatal: boolean;
}

/**
 * What a status means: missing source topics (`MissingSourceTopicError`, naming the source
 * topics the detail names) and incorrectly partitioned topics are fatal, as they are to Kafka
 * Streams; a stale topology and missing internal topics (the coordinator creates them) are
 * reported and waited out.
 */
export function streamsGroupStatusOutcome(
  groupId: string,
  status: StreamsGroupStatus,
  sourceTopics: readonly string[],
): StreamsGroupStatusOutcome {
  const detail = status.statusDetail;
  switch (status.statusCode) {
    case StreamsGroupStatusCode.MISSING_SOURCE_TOPICS: {
      const named = sourceTopics.filter((t) => detail.includes(t));
      return {
        status,
        error: new MissingSourceTopicError(named.length > 0 ? named : [detail]),
        fatal: true,
      };
    }
    case StreamsGroupStatusCode.INCORRECTLY_PARTITIONED_TOPICS:
      return { status, error: new IncorrectlyPartitionedTopicsError(groupId, detail), fatal: true };
    case StreamsGroupStatusCode.STALE_TOPOLOGY:
      return { status, error: new StaleTopologyError(groupId, detail), fatal: false };
    case StreamsGroupStatusCode.MISSING_INTERNAL_TOPICS:
      return { status, error: new MissingInternalTopicsError(groupId, detail), fatal: false };
    default:
      return { status, error: undefined, fatal: false };
  }
}

/**
 * The error a member fails with when its heartbeats failed for the rebalance timeout: a
 * transient fault (its coordinator refused or unreachable) as a retriable
 * `ClusterFaultTimeoutError`, which the default uncaught-exception handler answers by replacing
 * the thread (a new member joins); any other error as it is.
 */
export function heartbeatsTimedOut(
  groupId: string,
  rebalanceTimeoutMs: number,
  attempts: number,
  error: unknown,
  classify: FaultClassifier | undefined,
): Error {
  const fault = classify?.(error);
  if (!fault) return error instanceof Error ? error : new Error(String(error));
  const call = `StreamsGroupHeartbeat of streams group ${groupId}`;
  return new ClusterFaultTimeoutError(
    call,
    'the rebalance timeout',
    rebalanceTimeoutMs,
    attempts,
    fault.reason,
    { cause: error },
  );
}

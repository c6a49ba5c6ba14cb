// StreamsGroupHeartbeat response (API key 88), version 0, field for field as apache/kafka's
// StreamsGroupHeartbeatResponse.json defines it, read with platformatic's `Reader`. The error
// code is returned, not thrown: the member decides what each one means (rejoin, retry, fail).
import type { Reader } from '@platformatic/kafka';
import {
  readEndpoint,
  readInt32s,
  readStructs,
  readTaskIds,
  type StreamsEndpoint,
  type TaskIds,
} from './streams-group-structs';

/**
 * The status codes of a streams group (the response's `Status` list): conditions that hold for
 * the whole group until they are fixed.
 */
export const StreamsGroupStatusCode = {
  /** The member's topology epoch is lower than the group's. */
  STALE_TOPOLOGY: 0,
  /** Source topics are missing (named in the detail). */
  MISSING_SOURCE_TOPICS: 1,
  /** Co-partitioned topics have different partition counts, or a changelog a wrong count. */
  INCORRECTLY_PARTITIONED_TOPICS: 2,
  /** Internal topics are missing; the coordinator creates them (failures in the detail). */
  MISSING_INTERNAL_TOPICS: 3,
  /** A member asked the whole application to shut down. */
  SHUTDOWN_APPLICATION: 4,
  /**
   * The assignment waits for the group's initial rebalance delay
   * (`group.streams.initial.rebalance.delay.ms`); answered by 4.4 brokers, not in the
   * message definition's list.
   */
  ASSIGNMENT_DELAYED: 5,
} as const;

/** One of {@link StreamsGroupStatusCode}, or a code a newer broker added. */
export type StreamsGroupStatusCodeValue =
  (typeof StreamsGroupStatusCode)[keyof typeof StreamsGroupStatusCode] | number;

/** A status of the group. */
export interface StreamsGroupStatus {
  readonly statusCode: StreamsGroupStatusCodeValue;
  readonly statusDetail: string;
}

/** Partitions of one topic. */
export interface StreamsTopicPartitions {
  readonly topic: string;
  readonly partitions: readonly number[];
}

/** What one instance (by its `application.server` endpoint) holds: the routing map's entry. */
export interface EndpointToPartitions {
  readonly userEndpoint: StreamsEndpoint;
  /** Every partition of every topic its active tasks materialize (sources and changelogs). */
  readonly activePartitions: readonly StreamsTopicPartitions[];
  readonly standbyPartitions: readonly StreamsTopicPartitions[];
}

/** A StreamsGroupHeartbeat response. Nullable fields are `null` when unchanged. */
export interface StreamsGroupHeartbeatResponse {
  readonly throttleTimeMs: number;
  /** 0, or a Kafka error code (see `STREAMS_GROUP_ERRORS`). */
  readonly errorCode: number;
  readonly errorMessage: string | null;
  readonly memberId: string;
  readonly memberEpoch: number;
  readonly heartbeatIntervalMs: number;
  readonly acceptableRecoveryLag: number;
  readonly taskOffsetIntervalMs: number;
  readonly status: readonly StreamsGroupStatus[] | null;
  readonly activeTasks: readonly TaskIds[] | null;
  readonly standbyTasks: readonly TaskIds[] | null;
  readonly warmupTasks: readonly TaskIds[] | null;
  readonly endpointInformationEpoch: number;
  readonly partitionsByUserEndpoint: readonly EndpointToPartitions[] | null;
}

/** Reads a response body (after the response header). */
export function readStreamsGroupHeartbeatResponse(r: Reader): StreamsGroupHeartbeatResponse {
  const response: StreamsGroupHeartbeatResponse = {
    throttleTimeMs: r.readInt32(),
    errorCode: r.readInt16(),
    errorMessage: r.readNullableString(true),
    memberId: r.readString(true),
    memberEpoch: r.readInt32(),
    heartbeatIntervalMs: r.readInt32(),
    acceptableRecoveryLag: r.readInt32(),
    taskOffsetIntervalMs: r.readInt32(),
    status: readStructs(r, (e) => ({ statusCode: e.readInt8(), statusDetail: e.readString(true) })),
    activeTasks: readStructs(r, readTaskIds),
    standbyTasks: readStructs(r, readTaskIds),
    warmupTasks: readStructs(r, readTaskIds),
    endpointInformationEpoch: r.readInt32(),
    partitionsByUserEndpoint: readStructs(r, readEndpointToPartitions),
  };
  r.readTaggedFields();
  return response;
}

function readEndpointToPartitions(r: Reader): EndpointToPartitions {
  const userEndpoint = readEndpoint(r);
  r.readTaggedFields();
  return {
    userEndpoint,
    activePartitions: readStructs(r, readTopicPartitions) ?? [],
    standbyPartitions: readStructs(r, readTopicPartitions) ?? [],
  };
}

function readTopicPartitions(r: Reader): StreamsTopicPartitions {
  return { topic: r.readString(true), partitions: readInt32s(r) };
}

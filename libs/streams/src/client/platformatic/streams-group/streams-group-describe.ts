// StreamsGroupDescribe (API key 89), version 0, request and response field for field as
// apache/kafka's StreamsGroupDescribeRequest.json / StreamsGroupDescribeResponse.json define
// them, with platformatic's `Writer` and `Reader`. Error codes are returned, not thrown.
import { Writer, type Reader } from '@platformatic/kafka';
import {
  readEndpoint,
  readKeyValue,
  readNullableStruct,
  readStrings,
  readStructs,
  readTaskIds,
  readTaskOffset,
  readTopicInfo,
  writeStrings,
  type KeyValue,
  type StreamsEndpoint,
  type StreamsTopicInfo,
  type TaskIds,
  type TaskOffset,
} from './streams-group-structs';

/** A sub-topology as the group's coordinator configured it (topics resolved). */
export interface DescribedSubtopology {
  readonly subtopologyId: string;
  readonly sourceTopics: readonly string[];
  readonly repartitionSinkTopics: readonly string[];
  readonly stateChangelogTopics: readonly StreamsTopicInfo[];
  readonly repartitionSourceTopics: readonly StreamsTopicInfo[];
}

/** A member's tasks. */
export interface DescribedAssignment {
  readonly activeTasks: readonly TaskIds[];
  readonly standbyTasks: readonly TaskIds[];
  readonly warmupTasks: readonly TaskIds[];
}

/** One member of a described group. */
export interface DescribedStreamsMember {
  readonly memberId: string;
  readonly memberEpoch: number;
  readonly instanceId: string | null;
  readonly rackId: string | null;
  readonly clientId: string;
  readonly clientHost: string;
  readonly topologyEpoch: number;
  readonly processId: string;
  readonly userEndpoint: StreamsEndpoint | null;
  readonly clientTags: readonly KeyValue[];
  readonly taskOffsets: readonly TaskOffset[];
  readonly taskEndOffsets: readonly TaskOffset[];
  /** What the member owns now. */
  readonly assignment: DescribedAssignment;
  /** What the coordinator wants it to own. */
  readonly targetAssignment: DescribedAssignment;
  readonly isClassic: boolean;
}

/** One described group. */
export interface DescribedStreamsGroup {
  readonly errorCode: number;
  readonly errorMessage: string | null;
  readonly groupId: string;
  /** `Empty`, `NotReady`, `Assigning`, `Reconciling`, `Stable`, `Dead`, or `''`. */
  readonly groupState: string;
  readonly groupEpoch: number;
  readonly assignmentEpoch: number;
  /** Null when the group could not be described. */
  readonly topology: {
    readonly epoch: number;
    /** Null while the group is not ready (uninitialized, topics missing or mis-partitioned). */
    readonly subtopologies: readonly DescribedSubtopology[] | null;
  } | null;
  readonly members: readonly DescribedStreamsMember[];
  readonly authorizedOperations: number;
}

/** A StreamsGroupDescribe response. */
export interface StreamsGroupDescribeResponse {
  readonly throttleTimeMs: number;
  readonly groups: readonly DescribedStreamsGroup[];
}

/** The request's body: the groups to describe. */
export function writeStreamsGroupDescribeRequest(
  groupIds: readonly string[],
  includeAuthorizedOperations: boolean,
): Writer {
  const w = Writer.create();
  writeStrings(w, groupIds);
  return w.appendBoolean(includeAuthorizedOperations).appendTaggedFields();
}

/** Reads a response body (after the response header). */
export function readStreamsGroupDescribeResponse(r: Reader): StreamsGroupDescribeResponse {
  const response = {
    throttleTimeMs: r.readInt32(),
    groups: readStructs(r, readGroup) ?? [],
  };
  r.readTaggedFields();
  return response;
}

function readGroup(r: Reader): DescribedStreamsGroup {
  return {
    errorCode: r.readInt16(),
    errorMessage: r.readNullableString(true),
    groupId: r.readString(true),
    groupState: r.readString(true),
    groupEpoch: r.readInt32(),
    assignmentEpoch: r.readInt32(),
    topology: readNullableStruct(r, (t) => ({
      epoch: t.readInt32(),
      subtopologies: readStructs(t, readSubtopology),
    })),
    members: readStructs(r, readMember) ?? [],
    authorizedOperations: r.readInt32(),
  };
}

function readSubtopology(r: Reader): DescribedSubtopology {
  return {
    subtopologyId: r.readString(true),
    sourceTopics: readStrings(r),
    repartitionSinkTopics: readStrings(r),
    stateChangelogTopics: readStructs(r, readTopicInfo) ?? [],
    repartitionSourceTopics: readStructs(r, readTopicInfo) ?? [],
  };
}

function readMember(r: Reader): DescribedStreamsMember {
  return {
    memberId: r.readString(true),
    memberEpoch: r.readInt32(),
    instanceId: r.readNullableString(true),
    rackId: r.readNullableString(true),
    clientId: r.readString(true),
    clientHost: r.readString(true),
    topologyEpoch: r.readInt32(),
    processId: r.readString(true),
    userEndpoint: readNullableStruct(r, readEndpoint),
    clientTags: readStructs(r, readKeyValue) ?? [],
    taskOffsets: readStructs(r, readTaskOffset) ?? [],
    taskEndOffsets: readStructs(r, readTaskOffset) ?? [],
    assignment: readAssignmentStruct(r),
    targetAssignment: readAssignmentStruct(r),
    isClassic: r.readBoolean(),
  };
}

/** A non-nullable `Assignment` structure: its three lists, then its tagged fields. */
function readAssignmentStruct(r: Reader): DescribedAssignment {
  const assignment = {
    activeTasks: readStructs(r, readTaskIds) ?? [],
    standbyTasks: readStructs(r, readTaskIds) ?? [],
    warmupTasks: readStructs(r, readTaskIds) ?? [],
  };
  r.readTaggedFields();
  return assignment;
}

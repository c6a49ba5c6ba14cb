// StreamsGroupHeartbeat requests and responses that change nothing, for the streams group
// member's specs: each case spreads one and sets the fields it is about.
import type { StreamsGroupHeartbeatRequest } from '../src/client/platformatic/streams-group/streams-group-heartbeat-request';
import type { StreamsGroupHeartbeatResponse } from '../src/client/platformatic/streams-group/streams-group-heartbeat-response';

/**
 * A heartbeat of `memberId` in `groupId` at `memberEpoch` that reports nothing new: every
 * nullable field `null`, the rebalance timeout unchanged (-1), endpoint epoch 0, no shutdown.
 */
export function unchangedHeartbeat(
  groupId: string,
  memberId: string,
  memberEpoch: number,
): StreamsGroupHeartbeatRequest {
  return {
    groupId,
    memberId,
    memberEpoch,
    endpointInformationEpoch: 0,
    instanceId: null,
    rackId: null,
    rebalanceTimeoutMs: -1,
    topology: null,
    activeTasks: null,
    standbyTasks: null,
    warmupTasks: null,
    processId: null,
    userEndpoint: null,
    clientTags: null,
    taskOffsets: null,
    taskEndOffsets: null,
    shutdownApplication: false,
  };
}

/**
 * The coordinator's answer to member `m` at `memberEpoch` that assigns nothing new: no error,
 * every nullable field `null`, a heartbeat each minute, endpoint epoch 0.
 */
export function unchangedHeartbeatResponse(memberEpoch: number): StreamsGroupHeartbeatResponse {
  return {
    throttleTimeMs: 0,
    errorCode: 0,
    errorMessage: null,
    memberId: 'm',
    memberEpoch,
    heartbeatIntervalMs: 60_000,
    acceptableRecoveryLag: 10_000,
    taskOffsetIntervalMs: 60_000,
    status: null,
    activeTasks: null,
    standbyTasks: null,
    warmupTasks: null,
    endpointInformationEpoch: 0,
    partitionsByUserEndpoint: null,
  };
}

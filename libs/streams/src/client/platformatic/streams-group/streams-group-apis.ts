// The streams group APIs (KIP-1071) as platformatic APIs: called on one of its connections
// (`api(connection, request, callback)` or `api.async(connection, request)`), the header
// (request header v2, response header v1: both flexible) written and read by the connection.
import { createAPI, type API } from '@platformatic/kafka';
import {
  writeStreamsGroupDescribeRequest,
  readStreamsGroupDescribeResponse,
} from './streams-group-describe';
import type { StreamsGroupDescribeResponse } from './streams-group-describe';
import {
  writeStreamsGroupHeartbeatRequest,
  type StreamsGroupHeartbeatRequest,
} from './streams-group-heartbeat-request';
import {
  readStreamsGroupHeartbeatResponse,
  type StreamsGroupHeartbeatResponse,
} from './streams-group-heartbeat-response';

/** StreamsGroupHeartbeat's API key. */
export const STREAMS_GROUP_HEARTBEAT_KEY = 88;
/** StreamsGroupDescribe's API key. */
export const STREAMS_GROUP_DESCRIBE_KEY = 89;
/** The version of both APIs spoken here (Kafka 4.1 and newer brokers answer it). */
export const STREAMS_GROUP_API_VERSION = 0;

/** StreamsGroupHeartbeat v0. */
export const streamsGroupHeartbeatV0: API<
  [request: StreamsGroupHeartbeatRequest],
  StreamsGroupHeartbeatResponse
> = createAPI(
  STREAMS_GROUP_HEARTBEAT_KEY,
  STREAMS_GROUP_API_VERSION,
  (request: StreamsGroupHeartbeatRequest) => writeStreamsGroupHeartbeatRequest(request),
  (_correlationId, _apiKey, _apiVersion, reader) => readStreamsGroupHeartbeatResponse(reader),
);

/** StreamsGroupDescribe v0. */
export const streamsGroupDescribeV0: API<
  [groupIds: readonly string[], includeAuthorizedOperations: boolean],
  StreamsGroupDescribeResponse
> = createAPI(
  STREAMS_GROUP_DESCRIBE_KEY,
  STREAMS_GROUP_API_VERSION,
  (groupIds: readonly string[], includeAuthorizedOperations: boolean) =>
    writeStreamsGroupDescribeRequest(groupIds, includeAuthorizedOperations),
  (_correlationId, _apiKey, _apiVersion, reader) => readStreamsGroupDescribeResponse(reader),
);

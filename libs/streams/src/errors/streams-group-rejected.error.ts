import { StreamsError } from './streams.error';

/**
 * The group coordinator refused this member of a streams group (Kafka's streams rebalance
 * protocol, KIP-1071) for good: `kafkaError` names why, e.g. `STREAMS_INVALID_TOPOLOGY` (the
 * topology sent is invalid), `STREAMS_TOPOLOGY_FENCED` / `STREAMS_INVALID_TOPOLOGY_EPOCH` (its
 * topology epoch does not match the group's), `GROUP_MAX_SIZE_REACHED`,
 * `UNRELEASED_INSTANCE_ID` (another member still holds this member's static instance id),
 * `INVALID_REQUEST`, `UNSUPPORTED_VERSION` (the broker does not speak the protocol), or an
 * authorization failure.
 *
 * What to do: fix what the message names (the broker's configuration, ACLs, the topology, or
 * the instance id), then start again. Not retriable as it is.
 */
export class StreamsGroupRejectedError extends StreamsError.coded('STREAMS_GROUP_REJECTED', false) {
  constructor(
    readonly groupId: string,
    /** Kafka's error name (or its numeric code when unknown). */
    readonly kafkaError: string,
    /** The coordinator's error message, if any. */
    readonly detail: string | null,
  ) {
    super(
      `the coordinator of streams group ${groupId} refused this member: ${kafkaError}${detail ? ` (${detail})` : ''}`,
    );
  }
}

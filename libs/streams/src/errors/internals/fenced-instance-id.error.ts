import { StreamsError } from '../streams.error';

/**
 * Another process joined the consumer group with this member's static instance id
 * (`groupInstanceId`, Kafka's `group.instance.id`): the coordinator now counts that process as
 * the member and answers this one's heartbeats, rejoins and offset commits with
 * `FENCED_INSTANCE_ID` (Kafka's `FencedInstanceIdException`, KIP-345). The newer process keeps
 * the id; this one holds no partition any more.
 *
 * What the engine does: as Kafka Streams, it treats the error as fatal for the client. The
 * client stops (state `ERROR`) without asking the uncaught-exception handler, without rejoining
 * and without leaving the group: a rejoin with the same id would fence the other process in
 * turn, and the two would take the id from each other for ever.
 *
 * What to do: give every instance its own stable id (a StatefulSet's pod name), and make sure a
 * replaced process is gone before its successor starts. Not retriable: restarting this process
 * with the same id fences the one that holds it now.
 */
export class FencedInstanceIdError extends StreamsError.coded('FENCED_INSTANCE_ID', false) {
  constructor(
    readonly groupId: string,
    /** The instance id another process took; `undefined` where the failed call did not say. */
    readonly groupInstanceId: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(
      `another process joined consumer group ${groupId} with this member's group instance id${
        groupInstanceId === undefined ? '' : ` '${groupInstanceId}'`
      }: this client is fenced and stops`,
      options,
    );
  }
}

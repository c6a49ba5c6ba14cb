/** The part of kafkajs' `ConsumerGroup` (src/consumer/consumerGroup.js) the rejoin uses. */
export interface HeartbeatingConsumerGroup {
  readonly groupId: string;
  readonly memberId: string | null;
  heartbeat(options: { interval: number }): Promise<void>;
}

/** Builds the error kafkajs' runner answers by rejoining (type REBALANCE_IN_PROGRESS). */
export type RebalanceErrorFactory = (message: string) => Error;

const requested = new Set<string>();
let installed = false;

const key = (groupId: string, memberId: string): string => `${groupId}\u0000${memberId}`;

/**
 * Kafka's `Consumer.enforceRebalance()` for kafkajs, which has none: after
 * {@link requestGroupRejoin}, the member's next heartbeat fails with REBALANCE_IN_PROGRESS
 * without asking the broker, and kafkajs' runner then rejoins the group as it does when the
 * broker says so: a JoinGroup with the same member id, no LeaveGroup. The group's coordinator
 * rebalances (always when the leader rejoins) and waits for every member to rejoin, so no
 * member is ever missing from the new generation. Leaving and joining again instead would let
 * the members still in the group take the leaver's tasks, wherever their state is.
 *
 * Patches `heartbeat` on the class's prototype, once; `heartbeat` is what kafkajs calls after
 * every fetch (an empty one too) and what a batch handler's `heartbeat()` calls.
 */
export function installGroupRejoin(
  groupClass: { prototype: HeartbeatingConsumerGroup },
  rebalanceError: RebalanceErrorFactory,
): void {
  const original = groupClass.prototype.heartbeat;
  if ((original as { rejoinPatched?: boolean }).rejoinPatched) {
    installed = true;
    return;
  }
  const heartbeat = async function (
    this: HeartbeatingConsumerGroup,
    options: { interval: number },
  ): Promise<void> {
    if (this.memberId && requested.delete(key(this.groupId, this.memberId))) {
      throw rebalanceError('rejoining the group as the same member (probing rebalance)');
    }
    return original.call(this, options);
  };
  Object.assign(heartbeat, { rejoinPatched: true });
  groupClass.prototype.heartbeat = heartbeat;
  installed = true;
}

/**
 * Asks the member `memberId` of `groupId` to rejoin its group without leaving it (see
 * {@link installGroupRejoin}). Returns false, asking nothing, when the patch is not installed
 * (a kafkajs of another version): the caller then has no way to rejoin as the same member.
 */
export function requestGroupRejoin(groupId: string, memberId: string): boolean {
  if (!installed) return false;
  requested.add(key(groupId, memberId));
  return true;
}

/** Drops a pending request (the member stops). */
export function cancelGroupRejoin(groupId: string, memberId: string): void {
  requested.delete(key(groupId, memberId));
}

/** Whether a request is pending for the member (not yet answered by a heartbeat). */
export function groupRejoinPending(groupId: string, memberId: string): boolean {
  return requested.has(key(groupId, memberId));
}

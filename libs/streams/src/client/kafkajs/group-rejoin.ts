/** The part of kafkajs' `ConsumerGroup` (src/consumer/consumerGroup.js) the rejoin uses. */
export interface HeartbeatingConsumerGroup {
  readonly groupId: string;
  readonly memberId: string | null;
  readonly generationId?: number | null;
  heartbeat(options: { interval: number }): Promise<void>;
  joinAndSync(): Promise<void>;
}

/** Builds the error kafkajs' runner answers by rejoining (type REBALANCE_IN_PROGRESS). */
export type RebalanceErrorFactory = (message: string) => Error;

const requested = new Set<string>();
const beforeRejoin = new Map<string, RejoinHook>();
/** Hooks run before a member the coordinator forgot joins again, by its former member id. */
const afterLoss = new Map<string, RejoinHook>();
/** Each group's member id while it had one: kafkajs clears it on UNKNOWN_MEMBER_ID. */
const lastMemberId = new WeakMap<HeartbeatingConsumerGroup, string>();

interface RejoinHook {
  readonly hook: () => Promise<void>;
  readonly timeoutMs: number;
}
/** Groups inside `joinAndSync`, by group id: kafkajs emits GROUP_JOIN from there. */
const joining = new Map<string, Set<HeartbeatingConsumerGroup>>();
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
    if (this.memberId) lastMemberId.set(this, this.memberId);
    if (this.memberId && requested.delete(key(this.groupId, this.memberId))) {
      throw rebalanceError('rejoining the group as the same member (probing rebalance)');
    }
    return original.call(this, options);
  };
  Object.assign(heartbeat, { rejoinPatched: true });
  groupClass.prototype.heartbeat = heartbeat;
  const joinAndSync = groupClass.prototype.joinAndSync;
  groupClass.prototype.joinAndSync = async function (this: HeartbeatingConsumerGroup) {
    // A member id: the member rejoins (eager revocation). None after one: the coordinator
    // forgot the member (kafkajs cleared it on UNKNOWN_MEMBER_ID), whose partitions may have
    // other owners already (Kafka's onPartitionsLost).
    const formerId = this.memberId ? undefined : lastMemberId.get(this);
    const entry = this.memberId
      ? beforeRejoin.get(key(this.groupId, this.memberId))
      : formerId !== undefined
        ? afterLoss.get(key(this.groupId, formerId))
        : undefined;
    lastMemberId.delete(this);
    if (entry) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((r) => (timer = setTimeout(r, entry.timeoutMs)));
      await Promise.race([entry.hook().catch(() => undefined), timeout]);
      clearTimeout(timer);
    }
    let groups = joining.get(this.groupId);
    if (!groups) joining.set(this.groupId, (groups = new Set()));
    groups.add(this);
    try {
      return await joinAndSync.call(this);
    } finally {
      if (this.memberId) lastMemberId.set(this, this.memberId);
      groups.delete(this);
      if (groups.size === 0 && joining.get(this.groupId) === groups) joining.delete(this.groupId);
    }
  };
  installed = true;
}

/**
 * The generation the member `memberId` of `groupId` is joining: valid inside kafkajs'
 * GROUP_JOIN event, which kafkajs emits (with no generation id) at the end of the patched
 * `joinAndSync`. `undefined` without the patch or outside the event.
 */
export function joiningGeneration(groupId: string, memberId: string): number | undefined {
  for (const group of joining.get(groupId) ?? []) {
    if (group.memberId === memberId && typeof group.generationId === 'number')
      return group.generationId;
  }
  return undefined;
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

/**
 * Runs `hook` (and waits for it) before the member `memberId` of `groupId` rejoins its group,
 * while its generation may still commit: what Kafka's eager `onPartitionsRevoked` is for. kafkajs
 * has no such callback; without it a member commits only after the new generation formed, and
 * the partitions' next owners may fetch the committed offsets first and process again what
 * this member processed. Returns the function that removes the hook. The rejoin waits for the
 * hook at most `timeoutMs`; a hook's error is ignored (the rejoin goes on); without the patch
 * installed the hook never runs.
 */
export function beforeGroupRejoin(
  groupId: string,
  memberId: string,
  timeoutMs: number,
  hook: () => Promise<void>,
): () => void {
  return registered(beforeRejoin, key(groupId, memberId), { hook, timeoutMs });
}

/**
 * Runs `hook` (and waits for it) before the member `memberId` of `groupId` joins again after
 * the coordinator forgot it (kafkajs rejoins on UNKNOWN_MEMBER_ID without a member id and
 * without telling its user): Kafka's `onPartitionsLost`, for both protocols. The partitions may
 * have other owners already, so what the member holds is neither committed nor read as theirs.
 * Returns the function that removes the hook; the join waits for it at most `timeoutMs`; its
 * error is ignored; without the patch installed the hook never runs.
 */
export function afterGroupMembershipLost(
  groupId: string,
  memberId: string,
  timeoutMs: number,
  hook: () => Promise<void>,
): () => void {
  return registered(afterLoss, key(groupId, memberId), { hook, timeoutMs });
}

function registered(hooks: Map<string, RejoinHook>, k: string, entry: RejoinHook): () => void {
  hooks.set(k, entry);
  return () => {
    if (hooks.get(k) === entry) hooks.delete(k);
  };
}

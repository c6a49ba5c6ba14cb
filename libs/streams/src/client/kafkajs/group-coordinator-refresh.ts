/** The part of kafkajs' `ConsumerGroup` (src/consumer/consumerGroup.js) the refresh uses. */
export interface CoordinatedConsumerGroup {
  readonly groupId: string;
  /** The group coordinator found at the last join (a kafkajs `Broker`). */
  coordinator: unknown;
  /** Commits through its own copy of the coordinator, taken at the last sync. */
  offsetManager?: { coordinator: unknown };
  readonly cluster: { findGroupCoordinator(options: { groupId: string }): Promise<unknown> };
  commitOffsets(offsets?: unknown): Promise<void>;
  heartbeat(options: { interval: number }): Promise<void>;
}

type GroupMethod = 'commitOffsets' | 'heartbeat';

/**
 * kafkajs 2.2.4 sends a group's heartbeats and commits to the coordinator it found at the last
 * join, looked up again only when its connection closes or the member rejoins. After the
 * coordinator died or moved, every heartbeat and commit fails (a refused connection,
 * NOT_COORDINATOR) and kafkajs' retrier resends them to the same broker until its retries run
 * out (a minute and more: a frozen broker back, no longer coordinating the group, was asked
 * 503 times), holding the stream thread. Java's consumer marks the coordinator unknown and
 * finds it again: so does this patch of `ConsumerGroup.prototype.heartbeat` and
 * `commitOffsets`, after an error `lostCoordinator` recognizes, before it rethrows the error
 * (kafkajs' retrier then sends the request again, to the coordinator found). Installed once.
 */
export function installCoordinatorRefresh(
  groupClass: { prototype: CoordinatedConsumerGroup },
  lostCoordinator: (error: unknown) => boolean,
): void {
  for (const method of ['commitOffsets', 'heartbeat'] as const satisfies GroupMethod[]) {
    const original = groupClass.prototype[method] as (
      this: CoordinatedConsumerGroup,
      ...args: unknown[]
    ) => Promise<void>;
    if ((original as { refreshPatched?: boolean }).refreshPatched) continue;
    const patched = async function (
      this: CoordinatedConsumerGroup,
      ...args: unknown[]
    ): Promise<void> {
      try {
        await original.apply(this, args);
      } catch (error) {
        if (lostCoordinator(error)) await findAgain(this);
        throw error;
      }
    };
    // The flags of earlier patches (the rejoin's) stay visible on the method.
    Object.assign(patched, original, { refreshPatched: true });
    (groupClass.prototype as unknown as Record<GroupMethod, unknown>)[method] = patched;
  }
}

/** The group's coordinator, found again (FindCoordinator); kept as it was when none answers. */
async function findAgain(group: CoordinatedConsumerGroup): Promise<void> {
  const found = await group.cluster
    .findGroupCoordinator({ groupId: group.groupId })
    .catch(() => undefined);
  if (!found) return;
  group.coordinator = found;
  if (group.offsetManager) group.offsetManager.coordinator = found;
}

/** One instance in the published host map. */
export interface HostAssignment {
  readonly processId: string;
  /** `application.server`, when the instance set one. */
  readonly endpoint?: string;
  /** The instance-to-instance query endpoint, when the instance serves one. */
  readonly queryEndpoint?: string;
  readonly active: readonly string[];
  readonly standby: readonly string[];
}

/** What the leader sends every member (the member's tasks and the whole cluster's). */
export interface AssignmentInfo {
  readonly version: 1;
  readonly processId: string;
  readonly active: readonly string[];
  readonly standby: readonly string[];
  readonly warmup: readonly string[];
  readonly hosts: readonly HostAssignment[];
  /** Epoch ms at which the leader wants a probing rebalance (warm-ups placed), if any. */
  readonly probingRebalanceAtMs?: number;
  /** Set when a member asked the whole application to shut down: every member stops. */
  readonly error?: 'SHUTDOWN_APPLICATION';
}

/** What every member tells the leader in its subscription. */
export interface SubscriptionInfo {
  readonly version: 1;
  readonly processId: string;
  readonly endpoint?: string;
  /** The instance-to-instance query endpoint (`host:port`), when the Nest layer serves one. */
  readonly queryEndpoint?: string;
  /** Offset sums of local task state (-2: a running active task, caught up by definition). */
  readonly taskOffsetSums: Readonly<Record<string, number>>;
  readonly previousActive: readonly string[];
  /**
   * The generation the member holds `previousActive` in (absent before its first assignment):
   * when two members claim a task, the newer claim wins (the other member lost it).
   */
  readonly ownedGeneration?: number;
  /** A processing error's handler chose SHUTDOWN_APPLICATION on this member. */
  readonly shutdownRequested?: boolean;
}

/** The offset sum Kafka Streams reports for a task that is running active. */
export const LATEST_OFFSET = -2;

export function encodeInfo(info: AssignmentInfo | SubscriptionInfo): Buffer {
  return Buffer.from(JSON.stringify(info), 'utf8');
}

/**
 * Decodes user data written by {@link encodeInfo}.
 *
 * @throws Error for user data of another version or format: an incompatible member (another
 *   library or version) joined the application's group; give it another application id.
 */
export function decodeInfo<T extends AssignmentInfo | SubscriptionInfo>(
  data: Buffer | null | undefined,
): T {
  if (!data || data.length === 0) throw new Error('member user data is empty');
  const parsed = JSON.parse(data.toString('utf8')) as T;
  if (parsed.version !== 1)
    throw new Error(`unsupported user data version ${String(parsed.version)}`);
  return parsed;
}

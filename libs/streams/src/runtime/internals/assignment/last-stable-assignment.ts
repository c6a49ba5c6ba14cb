import { decodeInfo, type AssignmentInfo } from '../../../cluster/internals/assignment-info';
import type { StreamsLogger } from '../../../logging/logger';
import type { ResolvedStreamsConfig } from '../../streams-config';
import type { ClusterAdmin } from '../../../client/cluster-admin';

/** How long a starting client waits for the group's description before it goes on without. */
export const LAST_STABLE_ASSIGNMENT_TIMEOUT_MS = 3_000;

/**
 * The host map of the group's current assignment, read before this client joins: when the
 * application's classic group is stable, every member's assignment user data carries the whole
 * cluster's host map (the leader sends each member the same hosts). A client restarted after a
 * crash (its old member not yet expired, the group still stable) routes queries with it from its
 * first moment instead of answering "no confirmed owner" until its own first assignment, which
 * waits for the old member's session to expire. Borrowing is safe: an owner answers only from a
 * copy it runs active, and a standby's answer is marked stale.
 *
 * Classic protocol only. Best effort: undefined (with a debug line) when the group is not stable, has no member with
 * our user data, or the broker does not answer within {@link LAST_STABLE_ASSIGNMENT_TIMEOUT_MS}.
 */
export async function lastStableAssignment(
  admin: Pick<ClusterAdmin, 'describeGroup'>,
  config: Pick<ResolvedStreamsConfig, 'applicationId' | 'groupProtocol'>,
  logger: Pick<StreamsLogger, 'debug'>,
  timeoutMs = LAST_STABLE_ASSIGNMENT_TIMEOUT_MS,
): Promise<AssignmentInfo | undefined> {
  // A streams group (KIP-1071) gives a joining member the endpoint map in its first heartbeat.
  if (config.groupProtocol !== 'classic') return undefined;
  const groupId = config.applicationId;
  let timer: NodeJS.Timeout | undefined;
  try {
    const described = await Promise.race([
      admin.describeGroup(groupId),
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), timeoutMs);
        timer.unref?.();
      }),
    ]);
    if (!described) {
      logger.debug(`group ${groupId} not described within ${timeoutMs} ms: no host map borrowed`);
      return undefined;
    }
    for (const member of described.members) {
      if (member.assignmentUserData.length === 0) continue;
      try {
        const info = decodeInfo<AssignmentInfo>(member.assignmentUserData);
        if (Array.isArray(info.hosts) && info.hosts.length > 0) return info;
      } catch {
        // Another member's format: try the next one.
      }
    }
    logger.debug(`group ${groupId} is ${described.state}: no host map borrowed`);
    return undefined;
  } catch (error) {
    logger.debug(`group ${groupId} not described (${String(error)}): no host map borrowed`);
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

import { StreamsError } from '../streams.error';

/**
 * An answer of a group's coordinator (its committed offsets, or a member's heartbeat) came from a
 * broker that no other broker confirmed as the group's coordinator once it came: another broker
 * names another coordinator, or none answered. A broker hung while the group's coordination moved
 * away answers the requests queued at it, the moment it resumes, from the group as it was before
 * the hang: starting from its offsets would process records again that the group's state already
 * holds, and its "still a member" may be said to a member the group has dropped.
 *
 * What to do: look the coordinator up again and ask again; the cluster retry does so within
 * `default.api.timeout.ms`. Retriable.
 */
export class GroupCoordinatorUnconfirmedError extends StreamsError.coded(
  'GROUP_COORDINATOR_UNCONFIRMED',
  true,
) {
  constructor(
    readonly groupId: string,
    readonly reason: string,
    options?: { cause?: unknown; answer?: 'committed offsets' | 'heartbeat' },
  ) {
    super(
      `the ${options?.answer ?? 'committed offsets'} answer of group ${groupId} is not confirmed as its coordinator's (${reason}): asking again`,
      options,
    );
  }
}

import { StreamsError } from '../streams.error';

/**
 * A group's committed offsets came from a broker that no other broker confirmed as the group's
 * coordinator once they came: another broker names another coordinator, or none answered. A
 * broker hung while the group's coordination moved away answers the requests queued at it, the
 * moment it resumes, with offsets from before the hang; starting from them would process records
 * again that the group's state already holds.
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
    options?: { cause?: unknown },
  ) {
    super(
      `the committed offsets of group ${groupId} are not confirmed as its coordinator's (${reason}): asking again`,
      options,
    );
  }
}

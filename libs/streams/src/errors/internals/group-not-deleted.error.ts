import { StreamsError } from '../streams.error';

/** Why a consumer group could not be deleted. */
export type GroupNotDeletedReason = 'not-empty' | 'not-found';

/**
 * A consumer group was not deleted: it still has members (`NON_EMPTY_GROUP`), or the
 * coordinator does not know it (`GROUP_ID_NOT_FOUND`: never created, already deleted or
 * expired).
 *
 * What to do: the engine deletes only its throwaway restore and standby groups, as tidiness,
 * and ignores this error: an empty group without offsets expires on its own, and a group that
 * was not found is already gone. Not retriable as such (a non-empty group can be deleted once
 * its members left).
 */
export class GroupNotDeletedError extends StreamsError.coded('GROUP_NOT_DELETED', false) {
  constructor(
    readonly groupId: string,
    readonly reason: GroupNotDeletedReason,
    options?: { cause?: unknown },
  ) {
    super(
      reason === 'not-empty'
        ? `consumer group ${groupId} was not deleted: it still has members`
        : `consumer group ${groupId} was not deleted: the coordinator does not know it`,
      options,
    );
  }
}

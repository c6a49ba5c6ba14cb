import { PartitionLeaderNotAvailableError } from '../errors/internals/partition-leader-not-available.error';
import { GroupCoordinatorUnconfirmedError } from '../errors/internals/group-coordinator-unconfirmed.error';

/** Who answered a request for one partition that only its leader may answer. */
export interface LeaderAnswer {
  readonly partition: number;
  /** The broker that answered (the partition's leader by the metadata the request was sent by). */
  readonly nodeId: number;
  /** The leader epoch the answer was given at; -1 when the client cannot say. */
  readonly leaderEpoch: number;
}

/** A partition's leader as another broker's metadata names it, asked after the answers came. */
export interface ConfirmedLeader {
  readonly partition: number;
  /** -1 while none is elected. */
  readonly leader: number;
  /** -1 when the client cannot say. */
  readonly leaderEpoch: number;
}

/**
 * The reason `fetchTopicOffsets` refuses answers whose broker was no longer the leader when
 * another broker was asked afterwards.
 */
export const LEADER_MOVED_WHILE_ASKED = 'LEADER_MOVED_WHILE_ASKED';

/**
 * The reason committed offsets are refused when another broker, asked once they came, names
 * another coordinator of the group.
 */
export const COORDINATOR_MOVED_WHILE_ASKED = 'COORDINATOR_MOVED_WHILE_ASKED';

/**
 * Checks that every answer came from its partition's current leader: `confirmed` must name the
 * same broker (and, where both sides know it, the same leader epoch) for every answered
 * partition. What Java's clients get from KIP-320's leader epochs, made to hold also for the
 * request a hung broker answers the moment it resumes: kafkajs sends no leader epoch, and a
 * request sent to a broker while it was stopped (SIGSTOP, a long GC pause, a frozen VM) is
 * answered from its log as it was before the controller moved its leaderships away, before it
 * has learnt that it lost them. Such an answer is a high watermark from the past: a restore that
 * stopped there would serve a store that misses records another instance committed.
 *
 * `confirmed` must come from a broker other than the ones that answered (the hung broker's
 * own metadata is as old as its answers), asked after every answer arrived.
 *
 * @throws PartitionLeaderNotAvailableError ({@link LEADER_MOVED_WHILE_ASKED}, retriable) naming
 *   the partitions whose leader moved: look the leaders up again (refresh the metadata) and ask
 *   again.
 */
export function assertAnsweredByLeaders(
  topic: string,
  answers: readonly LeaderAnswer[],
  confirmed: readonly ConfirmedLeader[],
): void {
  const leaders = new Map(confirmed.map((c) => [c.partition, c]));
  const moved: string[] = [];
  for (const answer of answers) {
    const now = leaders.get(answer.partition);
    if (now === undefined || now.leader !== answer.nodeId) {
      moved.push(
        `${answer.partition} (answered by node ${answer.nodeId}, led by ${now === undefined ? 'no node' : `node ${now.leader}`})`,
      );
    } else if (
      answer.leaderEpoch >= 0 &&
      now.leaderEpoch >= 0 &&
      answer.leaderEpoch !== now.leaderEpoch
    ) {
      moved.push(
        `${answer.partition} (answered at leader epoch ${answer.leaderEpoch}, now ${now.leaderEpoch})`,
      );
    }
  }
  if (moved.length > 0) {
    throw new PartitionLeaderNotAvailableError(
      topic,
      `${LEADER_MOVED_WHILE_ASKED}: partition(s) ${moved.join(', ')}`,
    );
  }
}

/**
 * Checks that a group's committed offsets (or a member's heartbeat: `answer`) came from its
 * coordinator: `named`, the coordinator another broker names once the answer came, must be the
 * broker that answered. A broker hung
 * while the group's coordination moved answers an OffsetFetch queued at it, the moment it
 * resumes, with the offsets committed before the hang (and kafkajs finds the coordinator by
 * asking any broker, the hung one too, which names itself).
 *
 * @throws GroupCoordinatorUnconfirmedError (retriable): look the coordinator up again and ask again.
 */
export function assertAnsweredByCoordinator(
  groupId: string,
  answeredBy: number,
  named: number,
  answer: 'committed offsets' | 'heartbeat' = 'committed offsets',
): void {
  if (answeredBy !== named) {
    throw new GroupCoordinatorUnconfirmedError(
      groupId,
      `${COORDINATOR_MOVED_WHILE_ASKED}: answered by node ${answeredBy}, coordinated by node ${named}`,
      { answer },
    );
  }
}

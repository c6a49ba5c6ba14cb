// The steps of an application reset (Kafka's `kafka-streams-application-reset`), on the
// engine's admin ports: refuse while the group has members, move the input topics' committed
// offsets, delete the internal topics, wipe the local state.
import type { CommittedOffset } from '../client/cluster-admin';
import type { ResetAdmins } from '../client/offset-reset-admin';
import { ApplicationActiveError } from '../errors/application-active.error';
import { UnsupportedGroupTypeError } from '../errors/unsupported-group-type.error';
import { StateDirectory } from '../runtime/internals/task-state/state-directory';
import { isInternalTopicOf } from './internal-topic-names';
import { positionTimestamp, targetOffset, type ResetPosition } from './reset-position';

/** What to reset: the application, its input topics and where their offsets go. */
export interface ApplicationResetRequest {
  /** `application.id`: the consumer group and the prefix of the internal topics. */
  readonly applicationId: string;
  /** The user topics the application reads; every partition of each is reset. */
  readonly inputTopics: readonly string[];
  /** Where the input offsets go; default `{ to: 'earliest' }`. */
  readonly position?: ResetPosition;
  /**
   * `state.dir` of an instance on this machine: its local state of the application is deleted
   * as `KafkaStreams.cleanUp()` does. Unset: no local state touched (run `cleanUp()` on each
   * instance, or give each instance a fresh state directory).
   */
  readonly stateDir?: string;
  /** Only report what would be done. */
  readonly dryRun?: boolean;
}

/** One input partition's committed offset before and after the reset. */
export interface ResetInputOffset {
  readonly topic: string;
  readonly partition: number;
  /** The group's committed offset before the reset; null when it had none. */
  readonly from: number | null;
  readonly to: number;
}

/** What a reset did (or, with `dryRun`, would do). */
export interface ApplicationResetReport {
  readonly applicationId: string;
  readonly dryRun: boolean;
  /** Every partition of the input topics that exist, in topic and partition order. */
  readonly inputOffsets: readonly ResetInputOffset[];
  /** Input topics the cluster does not have: skipped, as Kafka's tool does. */
  readonly missingInputTopics: readonly string[];
  /** The internal topics deleted, sorted. */
  readonly deletedTopics: readonly string[];
  /** The application directory whose task directories were deleted, when `stateDir` was given. */
  readonly cleanedStateDir?: string;
}

/**
 * Runs the steps of a reset on connected admins, in Kafka's order: the group's state is checked
 * first (nothing is changed while it has members), then the input offsets are committed, then
 * the internal topics are deleted, then the local state is wiped.
 *
 * @throws ApplicationActiveError when the application's group has members: stop every
 *   instance, then run it again; UnsupportedGroupTypeError for a KIP-1071 `streams` group
 *   (nothing changed): reset it with Kafka's tool; StateDirectoryLockedError when an instance on this machine
 *   holds the state directory (the cluster part is done by then: stop it and run again); the
 *   client's error when the cluster refuses a step (authorization): the steps before it are done,
 *   and running the reset again completes it.
 */
export async function runApplicationReset(
  admins: ResetAdmins,
  request: ApplicationResetRequest,
  now: number = Date.now(),
): Promise<ApplicationResetReport> {
  const { applicationId } = request;
  const position = request.position ?? { to: 'earliest' };
  const dryRun = request.dryRun ?? false;
  const protocolType = await admins.reset.groupProtocolType(applicationId);
  if (protocolType === 'streams') throw new UnsupportedGroupTypeError(applicationId, protocolType);
  const group = await admins.cluster.describeGroup(applicationId);
  if (group.state !== 'Empty' && group.state !== 'Dead') {
    throw new ApplicationActiveError(applicationId, group.state);
  }

  const topics = new Set(await admins.cluster.listTopics());
  const inputTopics = [...new Set(request.inputTopics)];
  const presentInputs = inputTopics.filter((t) => topics.has(t));
  const missingInputTopics = inputTopics.filter((t) => !topics.has(t));
  const committed = new Map<string, number>();
  if (presentInputs.length > 0) {
    for (const c of await admins.cluster.fetchCommittedOffsets(applicationId, presentInputs)) {
      committed.set(`${c.topic}:${c.partition}`, c.offset);
    }
  }
  const timestamp = positionTimestamp(position, now);
  const inputOffsets: ResetInputOffset[] = [];
  for (const topic of presentInputs) {
    const logs = await admins.cluster.fetchTopicOffsets(topic);
    const byTimestamp = new Map<number, number>();
    if (timestamp !== undefined) {
      for (const o of await admins.reset.offsetsForTimestamp(topic, timestamp)) {
        byTimestamp.set(o.partition, o.offset);
      }
    }
    for (const log of logs) {
      inputOffsets.push({
        topic,
        partition: log.partition,
        from: committed.get(`${topic}:${log.partition}`) ?? null,
        to: targetOffset(position, log, byTimestamp.get(log.partition)),
      });
    }
  }
  const deletedTopics = [...topics].filter((t) => isInternalTopicOf(applicationId, t)).sort();
  const stateDirectory =
    request.stateDir === undefined
      ? undefined
      : new StateDirectory({ stateDir: request.stateDir, applicationId });

  if (!dryRun) {
    if (inputOffsets.length > 0) {
      await admins.reset.alterCommittedOffsets(
        applicationId,
        inputOffsets.map((o): CommittedOffset => ({ ...o, offset: o.to })),
      );
    }
    await admins.reset.deleteTopics(deletedTopics);
    await stateDirectory?.cleanUp();
  }
  return {
    applicationId,
    dryRun,
    inputOffsets,
    missingInputTopics,
    deletedTopics,
    ...(stateDirectory && { cleanedStateDir: stateDirectory.applicationDir }),
  };
}

// The engine's port for what resetting an application needs beyond `ClusterAdmin`: deleting
// topics, finding offsets by timestamp and committing a stopped group's offsets (Kafka's
// `kafka-streams-application-reset`). Adapters: ./kafkajs/kafkajs-offset-reset-admin.ts and
// ./platformatic/platformatic-offset-reset-admin.ts.
import type { ClusterAdmin, CommittedOffset } from './cluster-admin';

/** One partition's offset found for a timestamp. */
export interface OffsetForTimestamp {
  readonly partition: number;
  /**
   * The first offset whose record's timestamp is at or after the timestamp asked; -1 when no
   * record is that recent (the caller then takes the log end, as Kafka's tool does).
   */
  readonly offset: number;
}

/**
 * Topic deletion, offsets by timestamp and a group's committed offsets, in the engine's types,
 * over the client of a {@link ResetAdmins}' cluster admin (which connects and disconnects it).
 *
 * Errors: each method rejects with the client's error when the cluster refuses (an
 * authorization failure, a group that still has members: `alterCommittedOffsets`), the
 * operation not done, or when no broker answers.
 */
export interface OffsetResetAdmin {
  /**
   * The protocol type the cluster lists the group under, of every group type (`consumer` for
   * a classic group, `streams` for a KIP-1071 group); undefined when no group has that id.
   */
  groupProtocolType(groupId: string): Promise<string | undefined>;
  /** Deletes the topics (their data, for good). A topic already gone is not an error. */
  deleteTopics(topics: readonly string[]): Promise<void>;
  /** Each partition's first offset at or after `timestamp` (epoch ms), in partition order. */
  offsetsForTimestamp(topic: string, timestamp: number): Promise<OffsetForTimestamp[]>;
  /**
   * Commits these offsets for the group (which must have no members: the broker refuses a
   * commit from outside a live generation otherwise).
   */
  alterCommittedOffsets(groupId: string, offsets: readonly CommittedOffset[]): Promise<void>;
}

/**
 * A cluster admin and the reset's operations over one admin client: `cluster.connect()` before
 * any call of either, `cluster.disconnect()` when done.
 */
export interface ResetAdmins {
  readonly cluster: ClusterAdmin;
  readonly reset: OffsetResetAdmin;
}

/** Offsets grouped by topic, in the order given, each partition's offset made by `offset`. */
export function offsetsByTopic<O>(
  offsets: readonly CommittedOffset[],
  offset: (value: number) => O,
): Map<string, { partition: number; offset: O }[]> {
  const byTopic = new Map<string, { partition: number; offset: O }[]>();
  for (const o of offsets) {
    const list = byTopic.get(o.topic) ?? [];
    list.push({ partition: o.partition, offset: offset(o.offset) });
    byTopic.set(o.topic, list);
  }
  return byTopic;
}

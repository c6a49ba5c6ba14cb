import type { Kafka } from 'kafkajs';
import { UnknownTopicError } from '../../errors/internals/unknown-topic.error';
import type { PartitionRecords } from '../record-producer';
import { typedKafkajsProducerError } from './kafkajs-producer-errors';

/**
 * The partition counts of the topics a kafkajs client's producers send to, read once per topic
 * (and again for a partition beyond the count read). kafkajs retries a send to a topic the
 * cluster does not have as a transient fault (UNKNOWN_TOPIC_OR_PARTITION, while metadata may
 * lag), so with the engine's delivery bound it would wait `delivery.timeout.ms` before failing;
 * looked up first, a missing topic or partition is an `UnknownTopicError` once the admin's own
 * metadata retries (a few seconds, for a topic just created) have not found it.
 */
export class KafkajsTopicCheck {
  private readonly counts = new Map<string, number>();

  constructor(private readonly kafka: Kafka) {}

  /**
   * `topic-partition` of the first of `partitions` the cluster does not have, `undefined` when
   * it has them all or when the metadata could not be read (the send reports that fault).
   *
   * @throws UnknownTopicError when a topic does not exist.
   */
  async firstUnknown(partitions: Iterable<PartitionRecords>): Promise<string | undefined> {
    const unchecked = [...partitions].filter((p) => p.partition >= (this.counts.get(p.topic) ?? 0));
    if (unchecked.length === 0) return undefined;
    const topics = [...new Set(unchecked.map((p) => p.topic))];
    const admin = this.kafka.admin();
    try {
      await admin.connect();
      const { topics: metadata } = await admin.fetchTopicMetadata({ topics });
      for (const { name, partitions: known } of metadata) this.counts.set(name, known.length);
    } catch (error) {
      const typed = typedKafkajsProducerError(error, { transactionalId: undefined, topics });
      if (typed instanceof UnknownTopicError) throw typed;
      return undefined;
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
    const unknown = unchecked.find((p) => p.partition >= (this.counts.get(p.topic) ?? 0));
    return unknown ? `${unknown.topic}-${unknown.partition}` : undefined;
  }
}

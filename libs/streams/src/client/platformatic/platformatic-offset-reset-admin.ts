import type { Admin } from '@platformatic/kafka';
import type { CommittedOffset } from '../cluster-admin';
import {
  offsetsByTopic,
  type OffsetForTimestamp,
  type OffsetResetAdmin,
} from '../offset-reset-admin';

/** The {@link OffsetResetAdmin} port over @platformatic/kafka's `Admin`. */
export class PlatformaticOffsetResetAdmin implements OffsetResetAdmin {
  /** @param admin a platformatic admin client, closed by the cluster admin that shares it. */
  constructor(private readonly admin: Admin) {}

  async groupProtocolType(groupId: string): Promise<string | undefined> {
    const groups = await this.admin.listGroups({ types: ['classic', 'consumer', 'streams'] });
    return groups.get(groupId)?.protocolType;
  }

  async deleteTopics(topics: readonly string[]): Promise<void> {
    if (topics.length === 0) return;
    const existing = new Set(await this.admin.listTopics());
    const present = topics.filter((t) => existing.has(t));
    if (present.length > 0) await this.admin.deleteTopics({ topics: present });
  }

  async offsetsForTimestamp(topic: string, timestamp: number): Promise<OffsetForTimestamp[]> {
    const metadata = await this.admin.metadata({ topics: [topic] });
    const count = metadata.topics.get(topic)?.partitionsCount ?? 0;
    const [listed] = await this.admin.listOffsets({
      topics: [
        {
          name: topic,
          partitions: Array.from({ length: count }, (_, partitionIndex) => ({
            partitionIndex,
            timestamp: BigInt(timestamp),
          })),
        },
      ],
    });
    return (listed?.partitions ?? [])
      .map((p) => ({ partition: p.partitionIndex, offset: Number(p.offset) }))
      .sort((a, b) => a.partition - b.partition);
  }

  async alterCommittedOffsets(groupId: string, offsets: readonly CommittedOffset[]): Promise<void> {
    const byTopic = offsetsByTopic(offsets, BigInt);
    await this.admin.alterConsumerGroupOffsets({
      groupId,
      topics: [...byTopic].map(([name, partitionOffsets]) => ({ name, partitionOffsets })),
    });
  }
}

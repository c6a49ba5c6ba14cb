import type { Admin } from 'kafkajs';
import type { CommittedOffset } from '../cluster-admin';
import {
  offsetsByTopic,
  type OffsetForTimestamp,
  type OffsetResetAdmin,
} from '../offset-reset-admin';

/** The {@link OffsetResetAdmin} port over kafkajs' `Admin`. */
export class KafkajsOffsetResetAdmin implements OffsetResetAdmin {
  /** @param admin a kafkajs admin client, connected by the cluster admin that shares it. */
  constructor(private readonly admin: Admin) {}

  async groupProtocolType(groupId: string): Promise<string | undefined> {
    const { groups } = await this.admin.listGroups();
    return groups.find((g) => g.groupId === groupId)?.protocolType;
  }

  async deleteTopics(topics: readonly string[]): Promise<void> {
    if (topics.length === 0) return;
    try {
      await this.admin.deleteTopics({ topics: [...topics], timeout: 30_000 });
    } catch (error) {
      if (!/UNKNOWN_TOPIC_OR_PARTITION|does not host this topic/i.test(String(error))) throw error;
    }
  }

  async offsetsForTimestamp(topic: string, timestamp: number): Promise<OffsetForTimestamp[]> {
    const offsets = await this.admin.fetchTopicOffsetsByTimestamp(topic, timestamp);
    return offsets
      .map((o) => ({ partition: o.partition, offset: Number(o.offset) }))
      .sort((a, b) => a.partition - b.partition);
  }

  async alterCommittedOffsets(groupId: string, offsets: readonly CommittedOffset[]): Promise<void> {
    const byTopic = offsetsByTopic(offsets, String);
    for (const [topic, partitions] of byTopic) {
      await this.admin.setOffsets({ groupId, topic, partitions });
    }
  }
}

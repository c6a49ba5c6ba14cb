import { Kafka, logLevel, type Admin } from 'kafkajs';
import type { EventData } from './event-data';

/**
 * Messages per produce request. Requests go one at a time: concurrent requests could land out
 * of order, and a record behind its partition's stream time would be late for its window.
 */
const CHUNK = 10_000;

/**
 * The run's Kafka housekeeping: creates the input topic and fills it with the run's events,
 * reads offsets, and deletes everything the run created (topics and consumer groups whose
 * names start with the run's prefix).
 */
export class BenchTopics {
  private readonly kafka: Kafka;
  private admin: Admin | undefined;

  constructor(
    brokers: string,
    /** Every topic and group of the run starts with it. */
    readonly runPrefix: string,
  ) {
    this.kafka = new Kafka({
      clientId: `${runPrefix}-harness`,
      brokers: brokers.split(','),
      logLevel: logLevel.ERROR,
    });
  }

  private async connectedAdmin(): Promise<Admin> {
    if (!this.admin) {
      this.admin = this.kafka.admin();
      await this.admin.connect();
    }
    return this.admin;
  }

  /** Creates `topic` with `partitions` partitions, never deleted by time (retention -1). */
  async createTopic(topic: string, partitions: number): Promise<void> {
    const admin = await this.connectedAdmin();
    await admin.createTopics({
      waitForLeaders: true,
      topics: [
        {
          topic,
          numPartitions: partitions,
          replicationFactor: 1,
          configEntries: [{ name: 'retention.ms', value: '-1' }],
        },
      ],
    });
  }

  /**
   * Produces every event in order (key = user id, value = JSON, timestamp = event time) with
   * the murmur2 default partitioner, as a Java producer would; returns the seconds it took.
   */
  async produce(topic: string, data: EventData): Promise<number> {
    const producer = this.kafka.producer({ allowAutoTopicCreation: false });
    await producer.connect();
    const started = performance.now();
    try {
      for (let from = 0; from < data.length; from += CHUNK) {
        const to = Math.min(data.length, from + CHUNK);
        const messages = [];
        for (let i = from; i < to; i++) {
          messages.push({
            key: data.keyOf(i),
            value: data.valueOf(i),
            timestamp: String(data.timestampOf(i)),
          });
        }
        await producer.send({ topic, messages, acks: -1 });
      }
    } finally {
      await producer.disconnect();
    }
    return (performance.now() - started) / 1000;
  }

  /** The sum of the topic's end offsets (its record count when nothing was deleted). */
  async recordCount(topic: string): Promise<number> {
    const admin = await this.connectedAdmin();
    const offsets = await admin.fetchTopicOffsets(topic);
    return offsets.reduce((sum, p) => sum + Number(p.high) - Number(p.low), 0);
  }

  /** Input records the group `groupId` has committed on `topic` (0 while it has none). */
  async committedRecords(groupId: string, topic: string): Promise<number> {
    const admin = await this.connectedAdmin();
    const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
    return committed.partitions.reduce((sum, p) => sum + Math.max(0, Number(p.offset)), 0);
  }

  /**
   * Resolves once the group has no member left (a SIGKILLed member stays until its session
   * expires), or after `timeoutMs`; returns whether it emptied.
   */
  async waitForEmptyGroup(groupId: string, timeoutMs: number): Promise<boolean> {
    const admin = await this.connectedAdmin();
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const { groups } = await admin.describeGroups([groupId]);
      if ((groups[0]?.members.length ?? 0) === 0) return true;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    return false;
  }

  /** Deletes the run's topics and consumer groups (best effort; returns what it deleted). */
  async cleanup(): Promise<{ topics: string[]; groups: string[] }> {
    const admin = await this.connectedAdmin();
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(this.runPrefix));
    if (topics.length > 0) await admin.deleteTopics({ topics, timeout: 60_000 });
    const groups = (await admin.listGroups()).groups
      .map((g) => g.groupId)
      .filter((g) => g.startsWith(this.runPrefix));
    if (groups.length > 0) await admin.deleteGroups(groups).catch(() => undefined);
    return { topics, groups };
  }

  async close(): Promise<void> {
    await this.admin?.disconnect();
    this.admin = undefined;
  }
}

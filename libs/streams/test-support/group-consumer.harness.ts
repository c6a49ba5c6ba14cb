import type { Producer } from 'kafkajs';
import type { ClusterAdmin } from '../src/client/cluster-admin';
import type {
  GroupAssignRequest,
  GroupConsumer,
  GroupConsumerFactory,
  GroupFetchedBatch,
  TopicPartitionOffset,
  TopicPartitions,
} from '../src/client/group-consumer';
import { KafkaTestContext, randomSuffix } from '../../../test/support/kafka-test-context';
import { waitFor } from '../../../test/support/wait-for';

/** One client's group consumers, and its admin adapter to read committed offsets back. */
export interface GroupConsumerContractClient {
  readonly consumers: GroupConsumerFactory;
  /** A connected admin adapter of the same client. */
  admin(): Promise<ClusterAdmin>;
  close(): Promise<void>;
}

/** What one member of a test group saw. */
export interface Member {
  readonly name: string;
  readonly consumer: GroupConsumer;
  /** Its subscription user data (`member:<name>` until changed). */
  userData: string;
  /** Each assignment received: generation, partitions (sorted), user data as text. */
  readonly assignments: {
    generationId: number;
    memberId: string;
    partitions: string[];
    userData: string;
  }[];
  /** When each assignment arrived (`onAssigned`), epoch ms. */
  readonly assignedAt: number[];
  /** Records received in batches of the current generation, as `topic:partition@offset=value`. */
  readonly records: string[];
  readonly batches: GroupFetchedBatch[];
  /**
   * At each batch, while it was handled: the batch's partition and the consumer's `currentLag`
   * of each partition of the test topic (0 to 3).
   */
  readonly lagsAtBatches: { partition: number; lags: (number | undefined)[] }[];
  /** The position after the last batch consumed, per partition of the test topic. */
  readonly processed: Map<number, number>;
  revoked: number;
  /** How many times it was told its membership was lost (cooperative `onLost`). */
  lost: number;
}

/** How a test member differs from the others. */
export interface MemberOptions {
  /** The member's rebalance timeout (20 s unless set). */
  readonly rebalanceTimeoutMs?: number;
  /** The member's `onRevoking` (after its `revoked` count goes up); resolves at once unless set. */
  readonly onRevoking?: (member: Member) => Promise<void>;
  /** The member's rebalance protocol (`eager` unless set). */
  readonly rebalanceProtocol?: 'cooperative' | 'eager';
  /** A static member's id (KIP-345), on clients that have static membership. */
  readonly groupInstanceId?: string;
  /** The member's `max.partition.fetch.bytes` (the adapter's default unless set). */
  readonly maxBytesPerPartition?: number;
}

const flat = (partitions: readonly TopicPartitions[]): string[] =>
  partitions.flatMap((p) => p.partitions.map((n) => `${p.topic}:${n}`)).sort();

/**
 * One test's group of the group consumer contract: a topic of 4 partitions, a group id, the
 * members started in it (closed by {@link tearDown}) and the leader's assignor requests. The test
 * assignor sorts members by their user data and gives partition p to member p % n, with
 * `for:<user data>` as each member's assignment user data. A member's batch handler consumes
 * every batch of the current generation and leaves a stale one (`isCurrent()` false) unconsumed.
 */
export class GroupConsumerHarness {
  ctx!: KafkaTestContext;
  client!: GroupConsumerContractClient;
  producer!: Producer;
  groupId!: string;
  topic!: string;
  requests: { members: string[]; partitionCounts: [string, number][] }[] = [];
  /**
   * Awaited by the leader's assignor before it assigns (with the members' user data, sorted);
   * reset before each test.
   */
  beforeAssign: ((members: string[]) => Promise<void>) | undefined;
  /**
   * Assign as a cooperative assignor does (KIP-429): a partition another member holds now (its
   * last assignment) is given to nobody until that member gave it up. Reset before each test.
   */
  cooperativeAssign = false;
  readonly members: Member[] = [];

  constructor(private readonly create: () => GroupConsumerContractClient) {}

  async setUp(): Promise<void> {
    this.ctx = new KafkaTestContext();
    this.client = this.create();
    this.groupId = `${this.ctx.applicationId}-group-${randomSuffix()}`;
    this.topic = await this.ctx.createTopic(this.ctx.topicName('group-input'), 4);
    this.requests = [];
    this.beforeAssign = undefined;
    this.cooperativeAssign = false;
    this.producer = this.ctx.kafka.producer();
    await this.producer.connect();
  }

  async tearDown(): Promise<void> {
    for (const m of this.members.splice(0)) await m.consumer.close();
    await this.producer.disconnect();
    const admin = await this.client.admin();
    await admin.deleteGroups([this.groupId]).catch(() => undefined);
    await admin.disconnect();
    await this.client.close();
    await this.ctx.cleanup();
  }

  /** Starts a member of the group; resolves once its fetch loop runs. */
  async startMember(name: string, options: MemberOptions = {}): Promise<Member> {
    const member: Member = {
      name,
      userData: `member:${name}`,
      assignments: [],
      assignedAt: [],
      records: [],
      batches: [],
      lagsAtBatches: [],
      processed: new Map(),
      revoked: 0,
      lost: 0,
      consumer: this.client.consumers({
        groupId: this.groupId,
        assignor: {
          name: 'contract-assignor',
          subscriptionUserData: () => Buffer.from(member.userData),
          assign: (request) => this.assign(request),
        },
        sessionTimeoutMs: 10_000,
        heartbeatIntervalMs: 300,
        rebalanceTimeoutMs: options.rebalanceTimeoutMs ?? 20_000,
        maxWaitTimeMs: 100,
        rebalanceProtocol: options.rebalanceProtocol ?? 'eager',
        ...(options.groupInstanceId ? { groupInstanceId: options.groupInstanceId } : {}),
        ...(options.maxBytesPerPartition
          ? { maxBytesPerPartition: options.maxBytesPerPartition }
          : {}),
      }),
    };
    this.members.push(member);
    await member.consumer.start({
      topics: [this.topic],
      listener: {
        onRebalancing: () => undefined,
        onRevoking: async () => {
          member.revoked++;
          await options.onRevoking?.(member);
        },
        onAssigned: async (assignment) => {
          member.assignedAt.push(Date.now());
          const data = await assignment.userData();
          member.assignments.push({
            generationId: assignment.generationId,
            memberId: assignment.memberId,
            partitions: flat(assignment.partitions),
            userData: data.toString(),
          });
        },
        onLost: async () => {
          member.lost++;
        },
        onFetch: () => undefined,
        onFailed: (error) => void member.records.push(`failed: ${error.message}`),
      },
      handleBatch: async (batch) => {
        if (!batch.isCurrent()) return false;
        member.batches.push(batch);
        member.lagsAtBatches.push({
          partition: batch.partition,
          lags: [0, 1, 2, 3].map((p) => member.consumer.currentLag?.(this.topic, p)),
        });
        for (const r of batch.records) {
          member.records.push(`${r.topic}:${r.partition}@${r.offset}=${String(r.value)}`);
        }
        member.processed.set(batch.partition, batch.nextOffset);
        return true;
      },
    });
    return member;
  }

  /** Closes a member and forgets it (the tear-down does not close it again). */
  async stopMember(member: Member): Promise<void> {
    await member.consumer.close();
    this.members.splice(this.members.indexOf(member), 1);
  }

  /** The member's last assignment. */
  last(member: Member): Member['assignments'][number] {
    return member.assignments[member.assignments.length - 1];
  }

  /**
   * Waits (30 s at most) until `joining` holds 2 of the 4 partitions and `member` is in the same
   * generation: the group rebalanced with both.
   */
  async sharedWith(member: Member, joining: Member): Promise<void> {
    await waitFor(
      () =>
        this.last(joining)?.partitions.length === 2 &&
        this.last(member)?.generationId === this.last(joining).generationId,
      30_000,
      `${member.name} and ${joining.name} share the partitions`,
    );
  }

  /** What the member processed, as the offsets to commit (by partition). */
  processedOffsets(member: Member): TopicPartitionOffset[] {
    return [...member.processed]
      .sort(([a], [b]) => a - b)
      .map(([partition, offset]) => ({ topic: this.topic, partition, offset }));
  }

  /** The group's committed offsets of the test topic, read with the client's admin adapter. */
  async committed(): Promise<TopicPartitionOffset[]> {
    const admin = await this.client.admin();
    try {
      return await admin.fetchCommittedOffsets(this.groupId, [this.topic]);
    } finally {
      await admin.disconnect();
    }
  }

  async produce(partition: number, values: string[]): Promise<void> {
    await this.producer.send({
      topic: this.topic,
      messages: values.map((value) => ({ partition, value })),
    });
  }

  private async assign({ members: subs, partitionCounts }: GroupAssignRequest) {
    const members = subs.map((m) => m.userData.toString()).sort();
    this.requests.push({ members, partitionCounts: [...partitionCounts] });
    await this.beforeAssign?.(members);
    const sorted = [...subs].sort((a, b) =>
      a.userData.toString().localeCompare(b.userData.toString()),
    );
    // Cooperative: who holds each partition now (a member of this generation, by member id).
    const holders = new Map<string, string>();
    if (this.cooperativeAssign) {
      for (const m of this.members) {
        const held = this.last(m);
        if (held && subs.some((sub) => sub.memberId === held.memberId))
          for (const p of held.partitions) holders.set(p, held.memberId);
      }
    }
    return sorted.map((member, index) => ({
      memberId: member.memberId,
      partitions: [...partitionCounts].map(([name, count]) => ({
        topic: name,
        partitions: Array.from({ length: count }, (_, p) => p).filter((p) => {
          const holder = holders.get(`${name}:${p}`);
          return (
            p % sorted.length === index && (holder === undefined || holder === member.memberId)
          );
        }),
      })),
      userData: Buffer.from(`for:${member.userData.toString()}`),
    }));
  }
}

import type { PartitionAssigner } from 'kafkajs';
import type { GroupAssignor, GroupMemberSubscription } from '../group-consumer';
import { AssignerProtocol } from './kafkajs';

/**
 * The kafkajs `PartitionAssigner` that runs the engine's {@link GroupAssignor}: the member's
 * subscription user data goes in kafkajs' member metadata (consumer protocol v1), and on the
 * leader every member's metadata is decoded for `assign`, whose partitions and user data are
 * encoded as kafkajs' member assignments. Partition counts come from the consumer's cluster
 * metadata, refreshed first. kafkajs hands a member only the partitions of its own
 * assignment; the adapter reads the user data back (see `KafkajsGroupConsumer`).
 *
 * Errors: the assignor's error fails kafkajs' join, which kafkajs retries and then reports as a
 * crash of the consumer.
 */
export function kafkajsGroupAssigner(assignor: GroupAssignor): PartitionAssigner {
  return ({ cluster }) => ({
    name: assignor.name,
    version: 1,
    protocol: ({ topics }) => ({
      name: assignor.name,
      metadata: AssignerProtocol.MemberMetadata.encode({
        version: 1,
        topics,
        userData: assignor.subscriptionUserData(),
      }),
    }),
    assign: async ({ members }) => {
      const subscriptions: GroupMemberSubscription[] = members.map((member) => {
        const metadata = AssignerProtocol.MemberMetadata.decode(member.memberMetadata);
        return {
          memberId: member.memberId,
          topics: metadata?.topics ?? [],
          userData: metadata?.userData ?? Buffer.alloc(0),
        };
      });
      await cluster.refreshMetadata();
      const partitionCounts = new Map<string, number>();
      for (const topic of new Set(subscriptions.flatMap((s) => s.topics))) {
        const partitions = cluster.findTopicPartitionMetadata(topic);
        if (partitions.length > 0) partitionCounts.set(topic, partitions.length);
      }
      const assignments = await assignor.assign({ members: subscriptions, partitionCounts });
      return assignments.map(({ memberId, partitions, userData }) => ({
        memberId,
        memberAssignment: AssignerProtocol.MemberAssignment.encode({
          version: 1,
          assignment: Object.fromEntries(partitions.map((p) => [p.topic, [...p.partitions]])),
          userData,
        }),
      }));
    },
  });
}

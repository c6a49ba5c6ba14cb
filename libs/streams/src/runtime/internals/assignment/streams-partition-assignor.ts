import type {
  GroupAssignor,
  GroupMemberAssignment,
  TopicPartitions,
} from '../../../client/group-consumer';
import {
  compareTaskIds,
  assignTasks,
  type ClientState,
} from '../../../cluster/internals/task-assignment';
import {
  currentOwners,
  holdBackMovingTasks,
} from '../../../cluster/internals/cooperative-assignment';
import {
  decodeInfo,
  encodeInfo,
  type AssignmentInfo,
  type HostAssignment,
  type SubscriptionInfo,
} from '../../../cluster/internals/assignment-info';

/** The protocol name members agree on; a member with another assignor cannot join. */
export const STREAMS_ASSIGNOR_NAME = 'nest-streams';

/** What the assignor needs from the application it serves. */
export interface StreamsAssignorContext {
  /** Sub-topologies: id, physical source topics, whether they hold state. */
  subtopologies(): readonly { id: number; sourceTopics: readonly string[]; stateful: boolean }[];
  /** This instance's subscription (process id, endpoint, local task state). */
  subscription(): SubscriptionInfo;
  /** Changelog end-offset sums per stateful task, for lag-aware placement (best effort). */
  taskEndOffsetSums(): Promise<Record<string, number>>;
  readonly numStandbyReplicas: number;
  readonly acceptableRecoveryLag: number;
  readonly maxWarmupReplicas: number;
  readonly probingRebalanceIntervalMs: number;
  /** What the operator should look at (a lag-blind assignment). */
  log(message: string): void;
  /** What the assignor did as designed (tasks held back for a cooperative move). */
  info(message: string): void;
}

/**
 * The group assignor of a streams application (Kafka Streams' `StreamsPartitionAssignor`),
 * client-neutral: a group consumer adapter runs it in its client's group protocol. Members send
 * their process id, endpoint and local state in the subscription user data; the leader groups
 * partitions into tasks (one per sub-topology and partition), assigns active, standby and
 * warm-up tasks ({@link assignTasks}) and sends every member the whole host map in its
 * assignment user data.
 *
 * `cooperative` (KIP-429): a task that moves is first taken from its current owner only (see
 * {@link holdBackMovingTasks}); its new owner gets it in the follow-up rebalance that the
 * current owner starts once it gave the task up. The host map shows the target assignment.
 *
 * Errors: sub-topology sources with different partition counts fail the assignment with a
 * message naming the topics (fix the topics; co-partitioning is required).
 */
export function streamsGroupAssignor(
  context: StreamsAssignorContext,
  { cooperative }: { cooperative: boolean } = { cooperative: false },
): GroupAssignor {
  return {
    name: STREAMS_ASSIGNOR_NAME,
    subscriptionUserData: () => encodeInfo(context.subscription()),
    assign: async ({ members, partitionCounts }) => {
      const subtopologies = context.subtopologies();
      const tasks: string[] = [];
      const stateful = new Set<string>();
      const partitionsOf = new Map<string, { topic: string; partition: number }[]>();
      for (const sub of subtopologies) {
        const counts = sub.sourceTopics.map((topic) => partitionCounts.get(topic) ?? 0);
        const count = Math.max(0, ...counts);
        if (counts.some((c) => c !== count)) {
          throw new Error(
            `sub-topology ${sub.id} reads topics with different partition counts (${sub.sourceTopics
              .map((t, i) => `${t}: ${counts[i]}`)
              .join(', ')}); co-partitioned topics need equal counts`,
          );
        }
        for (let p = 0; p < count; p++) {
          const task = `${sub.id}_${p}`;
          tasks.push(task);
          if (sub.stateful) stateful.add(task);
          partitionsOf.set(
            task,
            sub.sourceTopics.map((topic) => ({ topic, partition: p })),
          );
        }
      }

      const byProcess = new Map<string, { info: SubscriptionInfo; memberIds: string[] }>();
      for (const member of members) {
        const info = decodeInfo<SubscriptionInfo>(member.userData);
        const entry = byProcess.get(info.processId) ?? { info, memberIds: [] };
        entry.memberIds.push(member.memberId);
        byProcess.set(info.processId, entry);
      }
      if ([...byProcess.values()].some(({ info }) => info.shutdownRequested)) {
        // Kafka Streams' SHUTDOWN_APPLICATION: no tasks for anyone, and an error code that
        // makes every member shut itself down.
        const hosts = [...byProcess.values()].map(({ info }) => ({
          processId: info.processId,
          endpoint: info.endpoint,
          active: [],
          standby: [],
        }));
        return [...byProcess.values()].flatMap(({ info, memberIds }) =>
          memberIds.map((memberId): GroupMemberAssignment => ({
            memberId,
            partitions: [],
            userData: encodeInfo({
              version: 1,
              processId: info.processId,
              active: [],
              standby: [],
              warmup: [],
              hosts,
              error: 'SHUTDOWN_APPLICATION',
            }),
          })),
        );
      }
      const clients: ClientState[] = [...byProcess.values()].map(({ info, memberIds }) => ({
        processId: info.processId,
        memberIds,
        endpoint: info.endpoint,
        taskOffsetSums: info.taskOffsetSums,
        previousActive: info.previousActive,
      }));
      let endOffsets: Record<string, number> | undefined;
      try {
        // Bounded: the group waits for this sync; placing with unknown lags beats stalling it.
        endOffsets = await Promise.race([
          context.taskEndOffsetSums(),
          new Promise<never>((_, reject) => {
            const timer = setTimeout(() => reject(new Error('timed out after 3 s')), 3000);
            timer.unref();
          }),
        ]);
      } catch (error) {
        context.log(
          `assignor: changelog end offsets unavailable (${String(error)}); stateful tasks stay ` +
            `where they run, warm-ups elsewhere, and a probing rebalance retries`,
        );
      }
      const result = assignTasks({
        clients,
        tasks,
        statefulTasks: stateful,
        taskEndOffsetSums: endOffsets,
        numStandbyReplicas: context.numStandbyReplicas,
        acceptableRecoveryLag: context.acceptableRecoveryLag,
        maxWarmupReplicas: context.maxWarmupReplicas,
      });
      const hosts: HostAssignment[] = clients.map((c) => ({
        processId: c.processId,
        endpoint: c.endpoint,
        queryEndpoint: byProcess.get(c.processId)!.info.queryEndpoint,
        active: result.clients.get(c.processId)!.active,
        standby: result.clients.get(c.processId)!.standby,
      }));
      let assigned = result.clients;
      if (cooperative) {
        const owners = currentOwners(
          [...byProcess.values()].map(({ info }) => ({
            processId: info.processId,
            owned: info.previousActive,
            generation: info.ownedGeneration,
          })),
        );
        const held = holdBackMovingTasks(result.clients, owners, stateful);
        assigned = held.clients;
        if (held.heldBack > 0) {
          context.info(
            `assignor: ${held.heldBack} task(s) move; their owners give them up first (cooperative)`,
          );
        }
      }
      const probingRebalanceAtMs = result.probingRebalanceNeeded
        ? Date.now() + context.probingRebalanceIntervalMs
        : undefined;
      return clients.flatMap((client) => {
        const mine = assigned.get(client.processId)!;
        // One stream thread per process: its first member gets the tasks.
        return client.memberIds.map((memberId, index): GroupMemberAssignment => {
          const active = index === 0 ? mine.active : [];
          const assignment = new Map<string, number[]>();
          for (const task of [...active].sort(compareTaskIds)) {
            for (const { topic, partition } of partitionsOf.get(task)!) {
              let partitions = assignment.get(topic);
              if (!partitions) assignment.set(topic, (partitions = []));
              partitions.push(partition);
            }
          }
          const partitions: TopicPartitions[] = [...assignment].map(([topic, ids]) => ({
            topic,
            partitions: ids,
          }));
          const info: AssignmentInfo = {
            version: 1,
            processId: client.processId,
            active,
            standby: index === 0 ? mine.standby : [],
            warmup: index === 0 ? mine.warmup : [],
            hosts,
            probingRebalanceAtMs,
          };
          return { memberId, partitions, userData: encodeInfo(info) };
        });
      });
    },
  };
}

// A consumer of a throwaway group (kafkajs has no manual assignment): the assigner that gives
// its only member exactly the partitions to read, and which crashes a new one may get past.
// kafkajs only: @platformatic/kafka reads by assignment and never takes these paths.
import type { Consumer, ConsumerConfig, Kafka, PartitionAssigner } from 'kafkajs';
import { isClusterUnreachableError } from '../cluster-unreachable';
import { AssignerProtocol } from './kafkajs';

const ASSIGNER_NAME = 'NestStreamsRestoreAssigner';

/**
 * The kafkajs client of the throwaway-group fallback paths (the restore through a group, the
 * standby manager's fallback consumer): taken only when the kafkajs reader by assignment cannot
 * be made. Other clients give none.
 */
export type ThrowawayGroupClient = Kafka;

/**
 * The fallback client, for a path that needs it.
 *
 * @throws Error when there is none: an adapter set whose reader gave no reader without giving
 *   a kafkajs client is a bug of that adapter set (report it); nothing to retry.
 */
export function requireThrowawayGroupClient(
  client: ThrowawayGroupClient | undefined,
  path: string,
): ThrowawayGroupClient {
  if (client) return client;
  throw new Error(
    `${path} needs the kafkajs client of the throwaway-group fallback, and the Kafka client adapters gave none: only kafkajs lacks a reader by assignment`,
  );
}

/**
 * The cluster is unreachable or not ready, or kafkajs gave up on an error it calls retriable
 * (joining a group whose coordinator moves or still loads ends so): a new consumer may pass.
 */
export function isTransientConsumerError(error: unknown): boolean {
  if (isClusterUnreachableError(error)) return true;
  for (let e = error, depth = 0; e instanceof Error && depth < 8; depth++) {
    if (e.name.startsWith('KafkaJS') && (e as { retriable?: unknown }).retriable === true) {
      return true;
    }
    e = e.cause ?? (e as { originalError?: unknown }).originalError;
  }
  return false;
}

/**
 * A new consumer of the throwaway group `config.groupId` whose assigner gives its only member
 * exactly `assignment`: it never creates topics and reads committed records only. Not connected.
 */
export function throwawayGroupConsumer(
  client: ThrowawayGroupClient,
  assignment: Record<string, number[]>,
  config: Pick<ConsumerConfig, 'groupId' | 'maxWaitTimeInMs' | 'maxBytesPerPartition' | 'retry'>,
): Consumer {
  return client.consumer({
    ...config,
    partitionAssigners: [fixedAssigner(assignment)],
    allowAutoTopicCreation: false,
    readUncommitted: false,
  });
}

/** An assigner that gives the (only) member exactly the partitions to restore. */
export function fixedAssigner(assignment: Record<string, number[]>): PartitionAssigner {
  return () => ({
    name: ASSIGNER_NAME,
    version: 1,
    async assign({ members }) {
      return members.map((member, i) => ({
        memberId: member.memberId,
        memberAssignment: AssignerProtocol.MemberAssignment.encode({
          version: 1,
          assignment: i === 0 ? assignment : {},
          userData: Buffer.alloc(0),
        }),
      }));
    },
    protocol({ topics }) {
      return {
        name: ASSIGNER_NAME,
        metadata: AssignerProtocol.MemberMetadata.encode({
          version: 1,
          topics,
          userData: Buffer.alloc(0),
        }),
      };
    },
  });
}

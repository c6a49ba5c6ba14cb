// The engine's one view of a Kafka client: the four ports' adapters, made from one streams
// config by the chosen client's factory (kafkajs: ./kafkajs/kafkajs-client.ts; @platformatic/kafka:
// ./platformatic/platformatic-client.ts). No engine file outside those folders imports a client.
import type { KafkaClientName } from './kafka-client-settings';
import type { AssignedPartitionReaderFactory } from './assigned-partition-reader';
import type { ClusterAdmin } from './cluster-admin';
import type { GroupConsumerFactory } from './group-consumer';
import type { ResetAdmins } from './offset-reset-admin';
import type { RecordProducerFactory } from './record-producer';
import type { ThrowawayGroupClient } from './kafkajs/throwaway-group-consumer';

/**
 * Every adapter the engine reaches Kafka through, all made from the same connection settings
 * (brokers, client id, TLS, SASL).
 */
export interface KafkaClientAdapters {
  /** The client these adapters are made from. */
  readonly client: KafkaClientName;
  /** A new cluster admin, not connected: `connect()` it, and `disconnect()` it when done. */
  clusterAdmin(): ClusterAdmin;
  /**
   * A new cluster admin and the application reset's operations over the same client, not
   * connected: `cluster.connect()` it, and `cluster.disconnect()` it when done.
   */
  resetAdmins(): ResetAdmins;
  /** Readers by assignment (restores and standbys), with the config's `checkCrcs`. */
  readonly assignedReaders: AssignedPartitionReaderFactory;
  /** The idempotent and transactional producers. */
  readonly recordProducers: RecordProducerFactory;
  /** The stream thread's group members. */
  readonly groupConsumers: GroupConsumerFactory;
  /**
   * kafkajs only: the client of the throwaway-group fallback paths (`restore-through-group.ts`,
   * the standby manager's fallback consumer), taken only when `assignedReaders` gives no reader
   * (a kafkajs whose internals differ from 2.2.4's). `undefined` for @platformatic/kafka, whose
   * reader always reads by assignment.
   */
  readonly throwawayGroupClient: ThrowawayGroupClient | undefined;
}

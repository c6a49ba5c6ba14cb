import type { Kafka } from 'kafkajs';

/** A partition as kafkajs' (internal) cluster keeps it in its metadata. */
export interface KafkajsPartitionMetadata {
  readonly partitionId: number;
  /** The leader's node id; -1 while none is elected. */
  readonly leader: number;
  readonly replicas: readonly number[];
  readonly isr: readonly number[];
}

/**
 * The parts of kafkajs' (internal) `Cluster` the engine's own requests use, with brokers of type
 * `Broker` (each caller names the parts of kafkajs' `Broker` it calls).
 */
export interface KafkajsCluster<Broker> {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  addTargetTopic(topic: string): Promise<void>;
  addMultipleTargetTopics(topics: string[]): Promise<void>;
  refreshMetadata(): Promise<void>;
  refreshMetadataIfNecessary(): Promise<void>;
  /** The partitions of `topic` in the metadata; none when the topic is not in it. */
  findTopicPartitionMetadata(topic: string): KafkajsPartitionMetadata[];
  /** Node id (as a string) to the partitions it leads, of those asked that the metadata has. */
  findLeaderForPartitions(topic: string, partitions: number[]): Record<string, number[]>;
  /** The node ids of the brokers in the metadata, as strings (the keys of kafkajs' broker map). */
  getNodeIds(): string[];
  findBroker(options: { nodeId: string }): Promise<Broker>;
  /** The coordinator of a group, asked of any broker (FindCoordinator), as a broker. */
  findGroupCoordinator(options: { groupId: string }): Promise<Broker>;
}

/** The options kafkajs' `Kafka` builds a cluster with. */
export interface KafkajsClusterOptions {
  readonly metadataMaxAge: number;
  readonly allowAutoTopicCreation: boolean;
  readonly maxInFlightRequests: number | null;
  readonly instrumentationEmitter: null;
  readonly isolationLevel: number;
}

/** Builds a kafkajs cluster with the client's brokers, TLS, SASL and retries. */
export type CreateKafkajsCluster<Broker> = (
  options: KafkajsClusterOptions,
) => KafkajsCluster<Broker>;

/**
 * The function kafkajs' `Kafka` client builds its clusters with (a private symbol of kafkajs
 * 2.x): the engine's own requests need a cluster of their own, as kafkajs' consumers and
 * producers have. `undefined` when this kafkajs has none.
 */
export function clusterFactoryOf<Broker>(kafka: Kafka): CreateKafkajsCluster<Broker> | undefined {
  const symbol = Object.getOwnPropertySymbols(kafka).find(
    (s) => s.description === 'private:Kafka:createCluster',
  );
  const create =
    symbol === undefined ? undefined : (kafka as unknown as Record<symbol, unknown>)[symbol];
  return typeof create === 'function' ? (create as CreateKafkajsCluster<Broker>) : undefined;
}

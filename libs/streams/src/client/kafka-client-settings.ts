// The part of the streams config the Kafka client adapters are made from; the engine's
// `ResolvedStreamsConfig` is one, so the runtime hands its config as it is.
import type { ClusterRetrySettings } from './cluster-retry/cluster-retry-settings';
import type { KafkaConfig } from './kafkajs/kafkajs';

/** The Kafka client every consumer, producer and admin of the engine is made from. */
export type KafkaClientName = 'kafkajs' | '@platformatic/kafka';

/**
 * Kafka's `group.protocol` for a streams application: `classic` (the consumer group protocol,
 * the engine's own assignor run by a member) or `streams` (KIP-1071's streams rebalance
 * protocol: the broker's group coordinator assigns tasks; Kafka 4.1 and newer, production-ready
 * from 4.2).
 */
export type GroupProtocol = 'classic' | 'streams';

/**
 * The connection settings every adapter of one client is made from, with the retry and timeout
 * settings of every call (`retry.backoff.ms`, `request.timeout.ms`, `delivery.timeout.ms`, ...).
 */
export interface KafkaClientSettings extends ClusterRetrySettings {
  /** The client the adapters are made from. */
  readonly kafkaClient: KafkaClientName;
  /** `client.id` prefix of every client. */
  readonly clientId: string;
  /** `bootstrap.servers`: `host:port` strings. */
  readonly bootstrapServers: string[];
  /**
   * Extra settings in kafkajs' shape (ssl, sasl, timeouts); @platformatic/kafka's adapters map
   * the ones they can honour.
   */
  readonly kafka?: Omit<KafkaConfig, 'brokers' | 'clientId'>;
  /** `check.crcs` of the readers by assignment. */
  readonly checkCrcs: boolean;
  /** `streams`: the group members speak KIP-1071's protocol (@platformatic/kafka only). */
  readonly groupProtocol: GroupProtocol;
}

import { StreamsError } from '../streams.error';

/** What the cluster refused this client access to. */
export type KafkaAuthorizationResource = 'topic' | 'group' | 'transactional-id' | 'cluster';

/**
 * The cluster's ACLs do not allow this client an operation: writing to a topic
 * (`TOPIC_AUTHORIZATION_FAILED`), committing a group's offsets (`GROUP_AUTHORIZATION_FAILED`),
 * using a transactional id (`TRANSACTIONAL_ID_AUTHORIZATION_FAILED`) or an idempotent producer
 * (`CLUSTER_AUTHORIZATION_FAILED`). Java's `AuthorizationException` family.
 *
 * What to do: grant the principal the permission named (Kafka Streams needs WRITE on its
 * output, changelog and repartition topics, READ on its group, WRITE and DESCRIBE on its
 * transactional ids, IDEMPOTENT_WRITE on the cluster). Not retriable.
 */
export class KafkaAuthorizationError extends StreamsError.coded(
  'KAFKA_AUTHORIZATION_FAILED',
  false,
) {
  constructor(
    readonly resource: KafkaAuthorizationResource,
    /** The resource's name (topic, group or transactional id); empty for the cluster. */
    readonly resourceName: string,
    options?: { cause?: unknown },
  ) {
    super(
      `the cluster refused this client access to ${resource}${resourceName ? ` ${resourceName}` : ''}: check its ACLs`,
      options,
    );
  }
}

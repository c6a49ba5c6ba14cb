import type { GroupProtocol, KafkaClientName } from '../client/kafka-client-settings';
import { StreamsConfigError } from '../errors/streams-config.error';

/**
 * How the classic consumer group protocol moves tasks between members in a rebalance:
 * `cooperative` (KIP-429: a member gives up only the tasks that move, in two rebalances; the
 * others keep processing and answering queries) or `eager` (every member stops every task until
 * the new assignment).
 */
export type RebalanceProtocol = 'cooperative' | 'eager';

/**
 * The Kafka client a config that names none runs on: `@platformatic/kafka` (maintained;
 * cooperative rebalancing, static membership, KIP-447 exactly-once with one transactional
 * producer per stream thread, the streams protocol). It used to be `kafkajs`, which stays
 * supported with `kafkaClient: 'kafkajs'`.
 */
export const DEFAULT_KAFKA_CLIENT: KafkaClientName = '@platformatic/kafka';

/** The values of `StreamsConfig.kafkaClient`, the default first. */
export const KAFKA_CLIENT_NAMES: readonly KafkaClientName[] = [DEFAULT_KAFKA_CLIENT, 'kafkajs'];

/** Kafka's rule for a `group.instance.id` (`JoinGroupRequest.validateGroupInstanceId`). */
const GROUP_INSTANCE_ID = /^[a-zA-Z0-9._-]{1,249}$/;

/** The settings of a config that choose the Kafka client and its group protocols. */
export interface KafkaClientChoiceSettings {
  readonly kafkaClient?: KafkaClientName;
  readonly rebalanceProtocol?: RebalanceProtocol;
  readonly groupProtocol?: GroupProtocol;
  readonly groupInstanceId?: string;
}

/** The client and protocols a config chose, defaults applied. */
export interface KafkaClientChoice {
  readonly kafkaClient: KafkaClientName;
  readonly rebalanceProtocol: RebalanceProtocol;
  readonly groupProtocol: GroupProtocol;
}

/**
 * The Kafka client, rebalance protocol and group protocol a config chose, with the defaults
 * (the client {@link DEFAULT_KAFKA_CLIENT}; Kafka Streams' rebalancing, cooperative, on
 * @platformatic/kafka and eager on kafkajs, which has no other; the classic group protocol), and
 * the combinations a client cannot run refused.
 *
 * @throws StreamsConfigError naming the setting: an unknown client or protocol, cooperative
 *   rebalancing, static membership or the streams protocol on kafkajs, or a `group.instance.id`
 *   Kafka refuses. Fix the config (never retriable).
 */
export function resolveKafkaClientChoice(config: KafkaClientChoiceSettings): KafkaClientChoice {
  const kafkaClient = config.kafkaClient ?? DEFAULT_KAFKA_CLIENT;
  if (!KAFKA_CLIENT_NAMES.includes(kafkaClient)) {
    throw new StreamsConfigError(
      `kafkaClient must be '@platformatic/kafka' or 'kafkajs', got '${String(kafkaClient)}'`,
    );
  }
  const rebalanceProtocol =
    config.rebalanceProtocol ?? (kafkaClient === 'kafkajs' ? 'eager' : 'cooperative');
  if (rebalanceProtocol !== 'cooperative' && rebalanceProtocol !== 'eager') {
    throw new StreamsConfigError(
      `rebalanceProtocol must be 'cooperative' or 'eager', got '${String(rebalanceProtocol)}'`,
    );
  }
  if (rebalanceProtocol === 'cooperative' && kafkaClient === 'kafkajs') {
    throw new StreamsConfigError(
      "rebalanceProtocol 'cooperative' needs kafkaClient '@platformatic/kafka': kafkajs has only the eager protocol",
    );
  }
  checkGroupInstanceId(config.groupInstanceId, kafkaClient);
  const groupProtocol = config.groupProtocol ?? 'classic';
  if (groupProtocol !== 'classic' && groupProtocol !== 'streams') {
    throw new StreamsConfigError(
      `group.protocol must be 'classic' or 'streams', got '${String(groupProtocol)}'`,
    );
  }
  if (groupProtocol === 'streams' && kafkaClient !== '@platformatic/kafka') {
    throw new StreamsConfigError(
      "group.protocol 'streams' needs kafkaClient '@platformatic/kafka': kafkajs cannot speak the streams rebalance protocol (KIP-1071)",
    );
  }
  return { kafkaClient, rebalanceProtocol, groupProtocol };
}

/** Throws `StreamsConfigError` for a `group.instance.id` Kafka refuses, or on kafkajs. */
function checkGroupInstanceId(id: unknown, kafkaClient: KafkaClientName): void {
  if (id === undefined) return;
  if (typeof id !== 'string' || !GROUP_INSTANCE_ID.test(id) || id === '.' || id === '..') {
    throw new StreamsConfigError(
      `group.instance.id must be 1 to 249 letters, digits, '.', '_' and '-' (not '.' or '..'), got '${String(id)}'`,
    );
  }
  if (kafkaClient === 'kafkajs') {
    throw new StreamsConfigError(
      "group.instance.id needs kafkaClient '@platformatic/kafka': kafkajs has no static membership",
    );
  }
}

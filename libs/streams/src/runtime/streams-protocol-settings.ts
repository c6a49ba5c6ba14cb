import type { GroupProtocol } from '../client/kafka-client-settings';
import { StreamsConfigError } from '../errors/streams-config.error';
import type { RebalanceProtocol } from './kafka-client-choice';

/** The settings, as given (unset: `undefined`), that the streams protocol has no use for. */
export interface StreamsProtocolIgnoredSettings {
  readonly applicationId: string;
  readonly numStandbyReplicas?: number;
  readonly acceptableRecoveryLag?: number;
  readonly maxWarmupReplicas?: number;
  readonly probingRebalanceIntervalMs?: number;
  readonly rebalanceProtocol?: RebalanceProtocol;
}

/**
 * On a resolved config: the assignor settings it got by default, not from the caller. Enumerable,
 * so a copy (`{ ...resolved, rocksDBConfigSetter }`, as the Nest module makes) keeps it, and
 * resolving the copy again refuses only what a caller set.
 */
export const DEFAULTED_ASSIGNOR_SETTINGS: unique symbol = Symbol('defaulted assignor settings');

/** The task-movement settings of the engine's assignor, which the broker's assignor replaces. */
export const ASSIGNOR_SETTINGS = [
  'acceptableRecoveryLag',
  'maxWarmupReplicas',
  'probingRebalanceIntervalMs',
] as const;

/**
 * Refuses the settings that would have no effect under `groupProtocol: 'streams'` (KIP-1071),
 * where the broker's group coordinator assigns the tasks from the group's own configs: standby
 * replicas (`streams.num.standby.replicas`), the engine assignor's task-movement settings, and
 * eager rebalancing (the broker reconciles incrementally: a member gives up only the tasks that
 * move). A setting left unset, and `numStandbyReplicas: 0`, are accepted.
 *
 * @throws StreamsConfigError naming the setting and what decides instead: remove it from the
 *   config (set the group's config with `kafka-configs --entity-type groups` where there is
 *   one), or use the classic protocol. Never retriable.
 */
export function refuseStreamsProtocolIgnored(
  config: StreamsProtocolIgnoredSettings,
  groupProtocol: GroupProtocol,
): void {
  if (groupProtocol !== 'streams') return;
  const standbys = config.numStandbyReplicas;
  if (standbys !== undefined && standbys !== 0) {
    throw new StreamsConfigError(
      `numStandbyReplicas ${standbys} has no effect under groupProtocol 'streams': the broker assigns standbys from the group's streams.num.standby.replicas; set it with kafka-configs --alter --entity-type groups --entity-name ${config.applicationId} --add-config streams.num.standby.replicas=${standbys} and leave numStandbyReplicas unset`,
    );
  }
  const defaulted = (config as { [DEFAULTED_ASSIGNOR_SETTINGS]?: readonly string[] })[
    DEFAULTED_ASSIGNOR_SETTINGS
  ];
  for (const name of ASSIGNOR_SETTINGS) {
    if (config[name] === undefined || defaulted?.includes(name)) continue;
    throw new StreamsConfigError(
      `${name} has no effect under groupProtocol 'streams': the broker's assignor decides how tasks move; leave it unset`,
    );
  }
  if (config.rebalanceProtocol === 'eager') {
    throw new StreamsConfigError(
      "rebalanceProtocol 'eager' has no effect under groupProtocol 'streams': the broker reconciles assignments incrementally (a member gives up only the tasks that move); leave it unset",
    );
  }
}

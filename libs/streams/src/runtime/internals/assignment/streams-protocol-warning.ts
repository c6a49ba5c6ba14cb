import type { ResolvedStreamsConfig } from '../../streams-config';

/**
 * What a client under the streams rebalance protocol (KIP-1071) says when it was configured
 * with standby replicas: the broker assigns the standbys from the group's
 * `streams.num.standby.replicas`, so the client's `numStandbyReplicas` has no effect and the
 * group may run without any. `undefined` when there is nothing to say.
 */
export function ignoredStandbysWarning(
  config: Pick<ResolvedStreamsConfig, 'groupProtocol' | 'numStandbyReplicas' | 'applicationId'>,
): string | undefined {
  if (config.groupProtocol !== 'streams' || config.numStandbyReplicas === 0) return undefined;
  return `numStandbyReplicas ${config.numStandbyReplicas} has no effect under groupProtocol 'streams': the broker assigns standbys from the group's streams.num.standby.replicas; set it with kafka-configs --alter --entity-type groups --entity-name ${config.applicationId} --add-config streams.num.standby.replicas=${config.numStandbyReplicas} (numStandbyReplicas 0 silences this)`;
}

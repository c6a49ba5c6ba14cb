import {
  Admin,
  ConfigResourceTypes,
  IncrementalAlterConfigOperationTypes,
} from '@platformatic/kafka';

/**
 * Sets a streams group's configs (what `kafka-configs --entity-type groups` sets), e.g.
 * `streams.num.standby.replicas` or `streams.acceptable.recovery.lag`: under the streams
 * rebalance protocol (KIP-1071) the broker assigns from them, and the client's
 * `numStandbyReplicas` and `acceptableRecoveryLag` are ignored. Works before the group exists.
 *
 * @throws the client's error when the broker refuses a config.
 */
export async function setStreamsGroupConfigs(
  bootstrapBrokers: string[],
  groupId: string,
  configs: Readonly<Record<string, string>>,
): Promise<void> {
  const admin = new Admin({ clientId: 'streams-group-configs', bootstrapBrokers });
  try {
    await admin.incrementalAlterConfigs({
      resources: [
        {
          resourceType: ConfigResourceTypes.GROUP,
          resourceName: groupId,
          configs: Object.entries(configs).map(([name, value]) => ({
            name,
            configOperation: IncrementalAlterConfigOperationTypes.SET,
            value,
          })),
        },
      ],
    });
  } finally {
    await admin.close();
  }
}

import type { KafkaStreams } from '@nest-streams/streams';

/**
 * The cluster's layout (`management.metadataEndpoint`): the client's state, every instance
 * with its active and standby partitions per store (`global: true` for a global store, whole
 * on every instance), this instance's lags per store partition,
 * and its processing counters. No store data.
 */
export async function clusterLayout(streams: KafkaStreams) {
  const lags = await streams.allLocalStorePartitionLags();
  const partitions = (list: readonly { topic: string; partition: number }[]) =>
    [...new Set(list.map((p) => p.partition))].sort((a, b) => a - b);
  const globals = streams.topology.globalStores();
  return {
    state: streams.state,
    instances: streams.metadataForAllStreamsClients().map((m) => ({
      host: m.hostInfo.toString(),
      stores: Object.fromEntries(
        [...new Set([...m.stateStoreNames, ...m.standbyStateStoreNames])].map((store) => [
          store,
          // A global store is whole on every instance: no partitions of its own.
          globals.has(store)
            ? { active: [], standby: [], global: true }
            : {
                active: m.stateStoreNames.includes(store) ? partitions(m.topicPartitions) : [],
                standby: m.standbyStateStoreNames.includes(store)
                  ? partitions(m.standbyTopicPartitions)
                  : [],
              },
        ]),
      ),
    })),
    lags: Object.fromEntries(
      [...lags].map(([store, perPartition]) => [store, Object.fromEntries(perPartition)]),
    ),
    metrics: streams.metrics(),
  };
}

/** What {@link clusterLayout} answers. */
export type ClusterLayout = Awaited<ReturnType<typeof clusterLayout>>;

import type { KafkaStreams } from '@nest-streams/streams';
import { parseTopologyDescription } from './topology-description.parser';
import { layoutTopology, type TopologyGraph } from './topology-graph';

/** A state store as the page lists it. */
export interface StoreSummary {
  readonly name: string;
  readonly kind: 'key-value' | 'window' | 'session';
  readonly subtopology: number;
  /** `<application.id>-<store>-changelog`, or undefined when logging is off. */
  readonly changelog?: string;
}

/** The topology on the cluster page: the description's text, its graph, its stores. */
export interface TopologyView {
  readonly applicationId: string;
  /** What `topology.describe()` prints. */
  readonly description: string;
  readonly graph: TopologyGraph;
  readonly stores: readonly StoreSummary[];
}

/**
 * The topology of `streams` for the page: the graph is drawn from the text
 * `topology.describe()` prints, with topics named as in Kafka (internal topics prefixed with
 * the application id), repartition topics marked, and each store's changelog topic.
 */
export function topologyView(streams: KafkaStreams): TopologyView {
  const { topology } = streams;
  const applicationId = streams.config.applicationId;
  const builders = topology.stores();
  const changelogOf = (store: string) =>
    builders.get(store)?.loggingEnabled ? `${applicationId}-${store}-changelog` : undefined;
  const description = topology.describe();
  const graph = layoutTopology(parseTopologyDescription(description), {
    physicalName: (topic) => streams.resolveTopic(topic),
    isRepartition: (topic) => topology.internalTopicDefs().get(topic)?.kind === 'repartition',
    changelogOf,
  });
  const stores = topology.subtopologies().flatMap((sub) =>
    sub.stores.map((name): StoreSummary => {
      const changelog = changelogOf(name);
      return {
        name,
        kind: builders.get(name)?.changelogKind ?? 'key-value',
        subtopology: sub.id,
        ...(changelog === undefined ? {} : { changelog }),
      };
    }),
  );
  return { applicationId, description, graph, stores };
}

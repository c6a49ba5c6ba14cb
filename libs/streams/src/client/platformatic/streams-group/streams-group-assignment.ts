import type {
  AssignmentInfo,
  HostAssignment,
  SubscriptionInfo,
} from '../../../cluster/internals/assignment-info';
import { compareTaskIds } from '../../../cluster/internals/task-assignment';
import type { StreamsGroupSubtopology, TopicPartitions } from '../../group-consumer';
import type { StreamsGroupCoordinator } from './streams-group-coordinator';
import type { StreamsTopology } from './streams-group-heartbeat-request';
import type {
  EndpointToPartitions,
  StreamsTopicPartitions,
} from './streams-group-heartbeat-response';
import type { StreamsTaskSet } from './streams-task-set';

/** The client tag that carries an instance's query endpoint to the other members. */
export const QUERY_ENDPOINT_TAG = 'nest-streams.query.endpoint';

/** How long building a host map waits for a group description. */
const DESCRIBE_TIMEOUT_MS = 2000;

/** The topology of the heartbeat request, from the engine's sub-topologies (epoch 0). */
export function streamsTopologyOf(
  subtopologies: readonly StreamsGroupSubtopology[],
): StreamsTopology {
  return {
    epoch: 0,
    subtopologies: subtopologies.map((s) => {
      const repartition = s.repartitionSourceTopics.map((t) => t.name);
      // Repartition topics go in their own list, with their partition counts.
      const sources = s.sourceTopics.filter((t) => !repartition.includes(t));
      return {
        subtopologyId: s.id,
        sourceTopics: sources,
        sourceTopicRegex: [],
        stateChangelogTopics: s.changelogTopics.map((c) => ({
          name: c.name,
          partitions: 0,
          replicationFactor: 0,
          topicConfigs: Object.entries(c.configs).map(([key, value]) => ({ key, value })),
        })),
        repartitionSinkTopics: [...s.repartitionSinkTopics],
        repartitionSourceTopics: s.repartitionSourceTopics.map((t) => ({
          name: t.name,
          partitions: t.partitions,
          replicationFactor: 0,
          topicConfigs: [],
        })),
        copartitionGroups: s.copartitionGroups.map((group) => ({
          sourceTopics: group.filter((t) => sources.includes(t)).map((t) => sources.indexOf(t)),
          sourceTopicRegex: [],
          repartitionSourceTopics: group
            .filter((t) => repartition.includes(t))
            .map((t) => repartition.indexOf(t)),
        })),
      };
    }),
  };
}

/**
 * Turns a streams group's assignment into the engine's {@link AssignmentInfo}: the member's
 * active, standby and warm-up task ids, and the host map, built from the routing map the
 * coordinator sends (`PartitionsByUserEndpoint`: each instance's source partitions mapped back
 * to tasks through the sub-topologies' source topics). The routing map names instances by
 * endpoint only: their process ids and query endpoints (a client tag) come from a group
 * description, asked for when an endpoint is not known yet. This instance's own entry is its
 * own assignment.
 */
export class StreamsGroupAssignmentInfo {
  private endpoints: readonly EndpointToPartitions[] = [];
  private readonly instances = new Map<string, { processId: string; queryEndpoint?: string }>();

  constructor(
    private readonly subtopologies: () => readonly StreamsGroupSubtopology[],
    private readonly coordinator: StreamsGroupCoordinator,
  ) {}

  /** Keeps the latest routing map. */
  setEndpoints(endpoints: readonly EndpointToPartitions[]): void {
    this.endpoints = endpoints;
  }

  /** The source partitions of active tasks. */
  partitionsOf(tasks: readonly string[]): TopicPartitions[] {
    const byId = new Map(this.subtopologies().map((s) => [s.id, s]));
    const byTopic = new Map<string, number[]>();
    for (const task of tasks) {
      const cut = task.lastIndexOf('_');
      const partition = Number(task.slice(cut + 1));
      for (const topic of byId.get(task.slice(0, cut))?.sourceTopics ?? []) {
        byTopic.set(topic, [...(byTopic.get(topic) ?? []), partition]);
      }
    }
    return [...byTopic].map(([topic, partitions]) => ({
      topic,
      partitions: partitions.sort((a, b) => a - b),
    }));
  }

  /** This member's assignment info; `shutdown` when a member asked the application to stop. */
  async info(
    self: SubscriptionInfo,
    tasks: StreamsTaskSet,
    shutdown: boolean,
  ): Promise<AssignmentInfo> {
    const standby = [...new Set([...tasks.standby, ...tasks.warmup])].sort(compareTaskIds);
    const me: HostAssignment = {
      processId: self.processId,
      endpoint: self.endpoint,
      queryEndpoint: self.queryEndpoint,
      active: tasks.active,
      standby,
    };
    const others = this.endpoints.filter((e) => endpointOf(e) !== self.endpoint);
    if (others.some((e) => !this.instances.has(endpointOf(e)))) await this.describe();
    const hosts = [
      me,
      ...others.map((e): HostAssignment => {
        const endpoint = endpointOf(e);
        const known = this.instances.get(endpoint);
        return {
          processId: known?.processId ?? endpoint,
          endpoint,
          queryEndpoint: known?.queryEndpoint,
          active: this.tasksOf(e.activePartitions),
          standby: this.tasksOf(e.standbyPartitions),
        };
      }),
    ];
    return {
      version: 1,
      processId: self.processId,
      active: tasks.active,
      standby,
      warmup: tasks.warmup,
      hosts,
      ...(shutdown ? { error: 'SHUTDOWN_APPLICATION' as const } : {}),
    };
  }

  /** Task ids whose source partitions the list holds. */
  private tasksOf(partitions: readonly StreamsTopicPartitions[]): string[] {
    const tasks = new Set<string>();
    for (const sub of this.subtopologies()) {
      for (const entry of partitions) {
        if (!sub.sourceTopics.includes(entry.topic)) continue;
        for (const n of entry.partitions) tasks.add(`${sub.id}_${n}`);
      }
    }
    return [...tasks].sort(compareTaskIds);
  }

  /** Reads every member's process id and query endpoint (bounded; failures leave gaps). */
  private async describe(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const group = await Promise.race([
        this.coordinator.describe(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('timed out')), DESCRIBE_TIMEOUT_MS);
        }),
      ]);
      for (const m of group.members) {
        if (!m.userEndpoint) continue;
        const queryEndpoint = m.clientTags.find((t) => t.key === QUERY_ENDPOINT_TAG)?.value;
        this.instances.set(`${m.userEndpoint.host}:${m.userEndpoint.port}`, {
          processId: m.processId,
          ...(queryEndpoint ? { queryEndpoint } : {}),
        });
      }
    } catch {
      // The host map names the instance by its endpoint until a later description succeeds.
    } finally {
      clearTimeout(timer);
    }
  }
}

function endpointOf(e: EndpointToPartitions): string {
  return `${e.userEndpoint.host}:${e.userEndpoint.port}`;
}

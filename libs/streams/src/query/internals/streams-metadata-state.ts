import type { AssignmentInfo } from '../../cluster/internals/assignment-info';
import { DefaultStreamPartitioner } from '../../cluster/default-stream-partitioner';
import { HostInfo } from '../../cluster/host-info';
import { UnknownStateStoreError } from '../../errors/unknown-state-store.error';
import type { Subtopology } from '../../processor/internals/topology-nodes';
import type { Topology } from '../../processor/topology';
import { KeyQueryMetadata } from '../key-query-metadata';
import type { KeyPartitioning } from '../key-query-metadata';
import type { StreamsMetadata } from '../streams-metadata';

const partitioner = new DefaultStreamPartitioner();

/**
 * The cluster as the latest assignment describes it: which instance runs which task, and so
 * which instance holds which partition of which store (Kafka Streams' `StreamsMetadataState`).
 * Every instance gets the whole host map in its assignment, so any instance answers "who owns
 * key K" without asking anyone. A global store is whole on every instance: every instance
 * lists it among its active stores, and a key of it lives here (as in Kafka Streams).
 */
export class StreamsMetadataState {
  private metadata: StreamsMetadata[] = [];
  /** Per task id (`1_3`): its active instance and its standby hosts, built per assignment. */
  private activeByTask = new Map<string, StreamsMetadata>();
  private standbysByTask = new Map<string, HostInfo[]>();
  /** Each task's answer to `keyQueryMetadata`, made once per assignment (immutable, shared). */
  private answerByTask = new Map<string, KeyQueryMetadata>();

  constructor(
    /** The topology: its sub-topologies, and which one holds a store. */
    private readonly topology: Pick<Topology, 'subtopologies' | 'subtopologyOf' | 'globalStores'>,
    /** Physical source topics of a sub-topology (internal topics prefixed). */
    private readonly physicalSources: (sub: Subtopology) => readonly string[],
    /** Partition count of a physical source topic. */
    private readonly partitionCount: (topic: string) => number | undefined,
    /** This instance's `application.server`, when it advertises one. */
    private readonly thisHost: () => HostInfo | undefined = () => undefined,
  ) {}

  /** Rebuilds the view from a new assignment. */
  update(info: AssignmentInfo): void {
    const subs = new Map(this.topology.subtopologies().map((s) => [s.id, s]));
    const globals = [...this.topology.globalStores().keys()];
    this.metadata = info.hosts
      .filter((h) => h.endpoint !== undefined)
      .map((h) => {
        const storesOf = (tasks: readonly string[]) =>
          [
            ...new Set(tasks.flatMap((t) => subs.get(Number(t.split('_')[0]))?.stores ?? [])),
          ].sort();
        const partitionsOf = (tasks: readonly string[]) =>
          tasks.flatMap((t) => {
            const [sub, partition] = t.split('_').map(Number);
            const subtopology = subs.get(sub);
            if (subtopology === undefined) return [];
            return this.physicalSources(subtopology).map((topic) => ({ topic, partition }));
          });
        return {
          hostInfo: HostInfo.parse(h.endpoint!),
          processId: h.processId,
          queryEndpoint: h.queryEndpoint,
          stateStoreNames: [...new Set([...storesOf(h.active), ...globals])].sort(),
          topicPartitions: partitionsOf(h.active),
          standbyStateStoreNames: storesOf(h.standby),
          standbyTopicPartitions: partitionsOf(h.standby),
          activeTasks: [...h.active],
          standbyTasks: [...h.standby],
        };
      });
    this.index();
  }

  /** Forgets the assignment (no confirmed owners until the next one). */
  clear(): void {
    this.metadata = [];
    this.index();
  }

  /** The task → instance look-ups of the current metadata (the first instance listing a task). */
  private index(): void {
    this.activeByTask = new Map();
    this.standbysByTask = new Map();
    this.answerByTask = new Map();
    for (const m of this.metadata) {
      for (const task of m.activeTasks) {
        if (!this.activeByTask.has(task)) this.activeByTask.set(task, m);
      }
      for (const task of m.standbyTasks) {
        const hosts = this.standbysByTask.get(task) ?? [];
        hosts.push(m.hostInfo);
        this.standbysByTask.set(task, hosts);
      }
    }
  }

  all(): StreamsMetadata[] {
    return this.metadata;
  }

  /**
   * Instances with `storeName` active or standby (every instance for a global store). Throws
   * for a store the topology lacks.
   */
  forStore(storeName: string): StreamsMetadata[] {
    if (this.isGlobal(storeName)) return this.metadata;
    this.subtopologyOf(storeName);
    return this.metadata.filter(
      (m) => m.stateStoreNames.includes(storeName) || m.standbyStateStoreNames.includes(storeName),
    );
  }

  /**
   * Where `key` of `storeName` lives; NOT_AVAILABLE when no instance runs its task as active.
   * A key of a global store lives on this instance (on the first instance of the metadata when
   * this one advertises no `application.server`), with no standbys and partition -1, Kafka
   * Streams' answer; NOT_AVAILABLE before the first assignment, as there.
   *
   * @throws UnknownStateStoreError for a store the topology does not have.
   */
  keyQueryMetadata<K>(
    storeName: string,
    key: K,
    partitioning: KeyPartitioning<K>,
  ): KeyQueryMetadata {
    if (this.isGlobal(storeName)) {
      if (this.metadata.length === 0) return KeyQueryMetadata.NOT_AVAILABLE;
      const here = this.thisHost() ?? this.metadata[0].hostInfo;
      return new KeyQueryMetadata(here, [], KeyQueryMetadata.UNKNOWN_PARTITION);
    }
    const sub = this.subtopologyOf(storeName);
    const counts = this.physicalSources(sub).map((t) => this.partitionCount(t) ?? 0);
    const numPartitions = Math.max(0, ...counts);
    if (numPartitions === 0 || this.metadata.length === 0) return KeyQueryMetadata.NOT_AVAILABLE;
    const partition =
      typeof partitioning === 'function'
        ? partitioning(key, numPartitions)
        : partitioner.partition(partitioning.serialize(key), numPartitions);
    const task = `${sub.id}_${partition}`;
    const known = this.answerByTask.get(task);
    if (known) return known;
    const active = this.activeByTask.get(task);
    if (!active) return KeyQueryMetadata.NOT_AVAILABLE;
    const answer = new KeyQueryMetadata(
      active.hostInfo,
      Object.freeze([...(this.standbysByTask.get(task) ?? [])]),
      partition,
    );
    this.answerByTask.set(task, answer);
    return answer;
  }

  /** Whether `storeName` is a global store (whole on every instance). */
  isGlobal(storeName: string): boolean {
    return this.topology.globalStores().has(storeName);
  }

  /**
   * The sub-topology that holds `storeName`.
   *
   * @throws UnknownStateStoreError for a store no sub-topology holds (a global store included).
   */
  subtopologyOf(storeName: string): Subtopology {
    const sub = this.topology.subtopologyOf(storeName);
    if (!sub)
      throw new UnknownStateStoreError(`the topology has no state store named '${storeName}'`);
    return sub;
  }
}

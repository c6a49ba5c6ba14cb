import { TopologyError } from '../errors/topology.error';
import type { Serde } from '../serde/serde';
import type { StateStore } from './state-store';
import type { ProcessorSupplier } from './processor';
import { groupSubtopologies } from './internals/subtopology-grouping';
import { describeTopology } from './internals/topology-description';
import type {
  GlobalStoreDef,
  InternalTopicDef,
  NodeDef,
  ProcessorNodeDef,
  Subtopology,
  TopologyStoreBuilder,
} from './internals/topology-nodes';
import type { StreamPartitioner } from './stream-partitioner';
import type { TimestampExtractor } from './timestamp-extractor';

/** Options of a source node. */
export interface SourceOptions<K, V> {
  keySerde?: Serde<K>;
  valueSerde?: Serde<V>;
  timestampExtractor?: TimestampExtractor<K, V>;
}

/** Options of a sink node. */
export interface SinkOptions<K, V> {
  keySerde?: Serde<K>;
  valueSerde?: Serde<V>;
  partitioner?: StreamPartitioner<K, V>;
}

/**
 * A processing graph built with the Processor API (or by `StreamsBuilder.build()`): sources
 * read topics, processors transform, sinks write topics, state stores attach to processors.
 * Nodes that share records or stores form a sub-topology; each sub-topology runs as one task
 * per input partition.
 *
 * Every method throws {@link TopologyError} on a mistake (duplicate name, unknown parent or
 * store): fix the call named in the message.
 */
export class Topology {
  private readonly nodes = new Map<string, NodeDef>();
  private readonly storeBuilders = new Map<string, TopologyStoreBuilder>();
  private readonly storeUsers = new Map<string, Set<string>>();
  private readonly internalTopics = new Map<string, InternalTopicDef>();
  private readonly copartitions: string[][] = [];
  private readonly globals = new Map<string, GlobalStoreDef>();
  private subtopologiesCache: Subtopology[] | undefined;
  /** Each global store's sub-topology number, set with {@link subtopologies}. */
  private globalIds = new Map<string, number>();

  /** Adds a source reading `topics` (one or more). */
  addSource<K = unknown, V = unknown>(
    name: string,
    topics: string | readonly string[],
    options: SourceOptions<K, V> = {},
  ): this {
    const list = typeof topics === 'string' ? [topics] : [...topics];
    if (list.length === 0) throw new TopologyError(`source '${name}' reads no topic`);
    for (const node of this.nodes.values()) {
      if (node.kind !== 'source') continue;
      const shared = node.topics.find((t) => list.includes(t));
      if (shared) {
        throw new TopologyError(`topic '${shared}' is already read by source '${node.name}'`);
      }
    }
    this.addNode({
      kind: 'source',
      name,
      topics: list,
      keySerde: options.keySerde as Serde<unknown> | undefined,
      valueSerde: options.valueSerde as Serde<unknown> | undefined,
      timestampExtractor: options.timestampExtractor as TimestampExtractor | undefined,
    });
    return this;
  }

  /** Adds a processor fed by `parentNames`; a new processor is made per task by `supplier`. */
  addProcessor<KIn, VIn, KOut, VOut>(
    name: string,
    supplier: ProcessorSupplier<KIn, VIn, KOut, VOut>,
    ...parentNames: string[]
  ): this {
    this.addNode({
      kind: 'processor',
      name,
      supplier: supplier as unknown as ProcessorSupplier<unknown, unknown, unknown, unknown>,
      parents: parentNames,
      stores: new Set(),
    });
    return this;
  }

  /** Adds a sink writing what `parentNames` forward to `topic`. */
  addSink<K, V>(
    name: string,
    topic: string,
    options: SinkOptions<K, V> = {},
    ...parentNames: string[]
  ): this {
    this.addNode({
      kind: 'sink',
      name,
      topic,
      keySerde: options.keySerde as Serde<unknown> | undefined,
      valueSerde: options.valueSerde as Serde<unknown> | undefined,
      partitioner: options.partitioner as StreamPartitioner<unknown, unknown> | undefined,
      parents: parentNames,
    });
    return this;
  }

  /** Adds a state store, optionally connecting it to processors at once. */
  addStateStore<S extends StateStore>(
    builder: TopologyStoreBuilder<S>,
    ...processorNames: string[]
  ): this {
    if (this.storeBuilders.has(builder.name)) {
      throw new TopologyError(`state store '${builder.name}' is already added`);
    }
    this.storeBuilders.set(builder.name, builder);
    this.storeUsers.set(builder.name, new Set());
    for (const processor of processorNames) this.connect(processor, builder.name);
    this.subtopologiesCache = undefined;
    return this;
  }

  /**
   * Adds a global store (Kafka Streams' `Topology.addGlobalStore`): every instance keeps a full
   * copy of it, filled from every partition of `topic` (its changelog: the store itself logs
   * nothing) by the processor `processorName` (`stateUpdateSupplier`, which writes the store
   * and forwards nothing) fed by the source `sourceName`. Any processor may read it with
   * `getStateStore`; it makes no sub-topology and no task.
   *
   * @throws TopologyError when the builder has logging enabled (disable it: the topic is the
   *   changelog), the store name or a node name is taken, or the topic is already read.
   */
  addGlobalStore<K, V>(
    builder: TopologyStoreBuilder,
    sourceName: string,
    options: SourceOptions<K, V>,
    topic: string,
    processorName: string,
    stateUpdateSupplier: ProcessorSupplier<K, V>,
  ): this {
    const storeName = builder.name;
    if (builder.loggingEnabled) {
      throw new TopologyError(
        `global store '${storeName}' must not have logging enabled: its topic is its changelog (call withLoggingDisabled)`,
      );
    }
    if (this.storeBuilders.has(storeName) || this.globals.has(storeName)) {
      throw new TopologyError(`state store '${storeName}' is already added`);
    }
    this.addSource(sourceName, topic, options);
    this.addNode({
      kind: 'processor',
      name: processorName,
      supplier: stateUpdateSupplier as ProcessorSupplier<unknown, unknown, unknown, unknown>,
      parents: [sourceName],
      stores: new Set([storeName]),
    });
    this.globals.set(storeName, { storeName, builder, topic, sourceName, processorName });
    return this;
  }

  /** Gives `processorName` access to stores added before. */
  connectProcessorAndStateStores(processorName?: string, ...storeNames: string[]): this {
    if (processorName === undefined) return this;
    for (const store of storeNames) this.connect(processorName, store);
    this.subtopologiesCache = undefined;
    return this;
  }

  /**
   * Declares a topic the application owns (a repartition topic), named
   * `<applicationId>-<name>` at run time and created before start. Sources and sinks refer to
   * it by `name`.
   */
  addInternalTopic(name: string, numPartitions?: number): this {
    this.internalTopics.set(name, { name, numPartitions, kind: 'repartition' });
    this.subtopologiesCache = undefined;
    return this;
  }

  /**
   * Declares topics that must be co-partitioned: a join reads them together, so they need the
   * same partition count (and the same key partitioning). Internal topics are named by their
   * logical name. The runtime checks the counts at start (and sizes repartition topics of a
   * group to match the others).
   */
  addCopartitionGroup(topics: Iterable<string>): this {
    const group = [...new Set(topics)];
    if (group.length > 1) this.copartitions.push(group);
    return this;
  }

  /**
   * The co-partition groups: overlapping declarations merged, each group's topics sorted,
   * groups in order of their first declaration.
   */
  copartitionGroups(): string[][] {
    const merged: Set<string>[] = [];
    for (const group of this.copartitions) {
      const hits = merged.filter((m) => group.some((t) => m.has(t)));
      const target = hits[0] ?? new Set<string>();
      if (hits.length === 0) merged.push(target);
      for (const t of group) target.add(t);
      for (const other of hits.slice(1)) {
        for (const t of other) target.add(t);
        merged.splice(merged.indexOf(other), 1);
      }
    }
    return merged.map((m) => [...m].sort());
  }

  /** Kafka Streams' `TopologyDescription` text, for logs and tests. */
  describe(): string {
    const subs = this.subtopologies();
    const globals = [...this.globals.values()].map((store) => ({
      ...store,
      id: this.globalIds.get(store.storeName)!,
    }));
    return describeTopology(subs, this.nodes, this.childrenMap(), globals);
  }

  /** @internal The nodes, in insertion order. */
  nodeDefs(): ReadonlyMap<string, NodeDef> {
    return this.nodes;
  }

  /** @internal Store builders by name. */
  stores(): ReadonlyMap<string, TopologyStoreBuilder> {
    return this.storeBuilders;
  }

  /**
   * @internal Strips every store's caching layer when the record cache has no room
   * (`statestore.cache.max.bytes` 0), as Kafka Streams' `rewriteTopology` does: the stores
   * then behave as uncached ones (an update is forwarded as it happens, even a delete of a
   * key the store never held), not as caches that evict at once.
   */
  applyCacheSize(cacheMaxBytes: number): void {
    if (cacheMaxBytes !== 0) return;
    for (const builder of this.storeBuilders.values()) builder.withCachingDisabled();
    for (const global of this.globals.values()) global.builder.withCachingDisabled();
  }

  /** @internal Global stores by store name, in the order they were added. */
  globalStores(): ReadonlyMap<string, GlobalStoreDef> {
    return this.globals;
  }

  /** @internal Internal (repartition) topics by logical name. */
  internalTopicDefs(): ReadonlyMap<string, InternalTopicDef> {
    return this.internalTopics;
  }

  /** @internal Child node names per node, in insertion order. */
  childrenMap(): Map<string, string[]> {
    const children = new Map<string, string[]>();
    for (const node of this.nodes.values()) children.set(node.name, []);
    for (const node of this.nodes.values()) {
      if (node.kind === 'source') continue;
      for (const parent of node.parents) children.get(parent)!.push(node.name);
    }
    return children;
  }

  /**
   * @internal The sub-topology that holds the store `storeName` (a store belongs to exactly
   * one), or `undefined` when the topology has no such store.
   *
   * @throws TopologyError as {@link subtopologies}.
   */
  subtopologyOf(storeName: string): Subtopology | undefined {
    return this.subtopologies().find((s) => s.stores.includes(storeName));
  }

  /**
   * @internal The sub-topology of id `id` (ids skip the global stores' numbers).
   *
   * @throws TopologyError when there is none (a task id of another topology), and as
   *   {@link subtopologies}.
   */
  subtopology(id: number): Subtopology {
    const sub = this.subtopologies().find((s) => s.id === id);
    if (sub === undefined) throw new TopologyError(`the topology has no sub-topology ${id}`);
    return sub;
  }

  /**
   * @internal The sub-topologies: nodes connected by parent links or shared stores. Ids follow
   * the order in which each group's first node was added, a global store's group counted
   * among them (Kafka Streams numbers them so, and lists them in `describe()` at their
   * numbers): a global store added first makes the first sub-topology `1`.
   *
   * @throws TopologyError for a store no processor uses, or an empty topology.
   */
  subtopologies(): Subtopology[] {
    if (this.subtopologiesCache) return this.subtopologiesCache;
    if (this.nodes.size === 0) throw new TopologyError('the topology has no nodes');
    for (const [store, users] of this.storeUsers) {
      if (users.size === 0)
        throw new TopologyError(`state store '${store}' is not connected to any processor`);
    }
    const { subtopologies, globalIds } = groupSubtopologies(
      this.nodes,
      this.storeUsers,
      this.globals.values(),
    );
    this.globalIds = globalIds;
    this.subtopologiesCache = subtopologies;
    return subtopologies;
  }

  private connect(processorName: string, storeName: string): void {
    const node = this.nodes.get(processorName);
    if (!node || node.kind !== 'processor') {
      throw new TopologyError(
        `cannot connect store '${storeName}': no processor named '${processorName}'`,
      );
    }
    const users = this.storeUsers.get(storeName);
    if (!users) {
      throw new TopologyError(
        `cannot connect processor '${processorName}': no state store named '${storeName}' (add it first)`,
      );
    }
    users.add(processorName);
    (node as ProcessorNodeDef).stores.add(storeName);
  }

  /** The source and processor names of the global stores. */
  private globalNodeNames(): Set<string> {
    return new Set([...this.globals.values()].flatMap((g) => [g.sourceName, g.processorName]));
  }

  private checkParents(name: string, parentNames: readonly string[]): void {
    if (parentNames.length === 0) throw new TopologyError(`node '${name}' has no parent`);
    const globalNodes = this.globalNodeNames();
    const global = parentNames.find((parent) => globalNodes.has(parent));
    if (global !== undefined) {
      throw new TopologyError(
        `'${global}' feeds a global store and cannot be the parent of '${name}'`,
      );
    }
    for (const parent of parentNames) {
      const node = this.nodes.get(parent);
      if (!node)
        throw new TopologyError(
          `parent '${parent}' of node '${name}' does not exist (add it first)`,
        );
      if (node.kind === 'sink')
        throw new TopologyError(`sink '${parent}' cannot be the parent of '${name}'`);
    }
  }

  /** Adds `node`, checking a processor's or sink's parents first, then that its name is free. */
  private addNode(node: NodeDef): void {
    if (node.kind !== 'source') this.checkParents(node.name, node.parents);
    if (this.nodes.has(node.name))
      throw new TopologyError(`a node named '${node.name}' already exists`);
    this.nodes.set(node.name, node);
    this.subtopologiesCache = undefined;
  }
}

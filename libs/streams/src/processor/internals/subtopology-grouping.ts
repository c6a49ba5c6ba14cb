import { TopologyError } from '../../errors/topology.error';
import type {
  GlobalStoreDef,
  NodeDef,
  SinkNodeDef,
  SourceNodeDef,
  Subtopology,
} from './topology-nodes';

/**
 * Groups a topology's nodes into sub-topologies as Kafka Streams' `InternalTopologyBuilder`
 * does: nodes joined by parent links or by a store they share form one group, and groups are
 * numbered in the order their first node was added, a global store's group (its source and
 * update processor) counted among them. Returns the stream sub-topologies (their ids skip the
 * global stores' numbers) and each global store's number, by store name.
 *
 * @throws TopologyError for a group no source reaches.
 */
export function groupSubtopologies(
  nodes: ReadonlyMap<string, NodeDef>,
  storeUsers: ReadonlyMap<string, ReadonlySet<string>>,
  globals: Iterable<GlobalStoreDef>,
): { subtopologies: Subtopology[]; globalIds: Map<string, number> } {
  const order = [...nodes.keys()];
  const parent = new Map(order.map((n) => [n, n]));
  const find = (n: string): string => {
    let root = n;
    while (parent.get(root) !== root) root = parent.get(root)!;
    parent.set(n, root);
    return root;
  };
  const union = (a: string, b: string): void => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent.set(rb, ra);
  };
  for (const node of nodes.values()) {
    if (node.kind !== 'source') for (const p of node.parents) union(node.name, p);
  }
  for (const users of storeUsers.values()) {
    const [first, ...rest] = [...users];
    for (const other of rest) union(first, other);
  }
  const groups = new Map<string, string[]>();
  for (const name of order) {
    const root = find(name);
    if (!groups.has(root)) groups.set(root, []);
    groups.get(root)!.push(name);
  }
  const globalBySource = new Map([...globals].map((g) => [g.sourceName, g.storeName]));
  const subtopologies: Subtopology[] = [];
  const globalIds = new Map<string, number>();
  for (const [id, names] of [...groups.values()].entries()) {
    const global = names.map((n) => globalBySource.get(n)).find((g) => g !== undefined);
    if (global !== undefined) {
      globalIds.set(global, id);
      continue;
    }
    const defs = names.map((n) => nodes.get(n)!);
    const sources = defs.filter((d): d is SourceNodeDef => d.kind === 'source');
    if (sources.length === 0) {
      throw new TopologyError(`nodes [${names.join(', ')}] are not reachable from any source`);
    }
    const stores = [...storeUsers]
      .filter(([, users]) => [...users].some((u) => names.includes(u)))
      .map(([store]) => store);
    subtopologies.push({
      id,
      nodes: names,
      sourceTopics: sources.flatMap((s) => s.topics),
      sinkTopics: defs.filter((d): d is SinkNodeDef => d.kind === 'sink').map((s) => s.topic),
      stores,
    });
  }
  return { subtopologies, globalIds };
}

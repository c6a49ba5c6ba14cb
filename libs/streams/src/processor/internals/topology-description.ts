import type { GlobalStoreDef, NodeDef, Subtopology } from './topology-nodes';

/**
 * Renders sub-topologies as Kafka Streams' `TopologyDescription.toString()` does: the
 * sub-topologies and the global stores' by number (a global store has the number of its place
 * among them), each node with its topics or stores, children (`-->`) and parents (`<--`). As
 * there, the first header is indented by three spaces and the others by two, a global store's
 * is not followed by a blank line, and a sub-topology lists its nodes by the size of what
 * follows them, then by name (see {@link javaNodeOrder}). Children and parents are listed in
 * the order they were connected; Kafka Streams sorts them by sizes taken while it links the
 * nodes in hash order, which can differ for a node with two children or parents.
 */
export function describeTopology(
  subtopologies: readonly Subtopology[],
  nodes: ReadonlyMap<string, NodeDef>,
  children: ReadonlyMap<string, readonly string[]>,
  globalStores: readonly (GlobalStoreDef & { readonly id: number })[] = [],
): string {
  const parts = [
    ...subtopologies.map((sub) => ({ id: sub.id, lines: describeSubtopology(sub) })),
    ...globalStores.map((store) => ({ id: store.id, lines: describeGlobalStore(store) })),
  ].sort((a, b) => a.id - b.id);
  return `Topologies:\n ${parts.map((p) => `  ${p.lines.join('\n')}\n`).join('')}`;

  function describeSubtopology(sub: Subtopology): string[] {
    const lines = [`Sub-topology: ${sub.id}`];
    for (const name of javaNodeOrder(sub.nodes, children)) {
      const node = nodes.get(name)!;
      const kids = children.get(name) ?? [];
      switch (node.kind) {
        case 'source':
          lines.push(`    Source: ${name} (topics: [${node.topics.join(', ')}])`);
          break;
        case 'processor':
          lines.push(`    Processor: ${name} (stores: [${[...node.stores].join(', ')}])`);
          break;
        case 'sink':
          lines.push(`    Sink: ${name} (topic: ${node.topic})`);
          break;
      }
      if (node.kind !== 'sink')
        lines.push(`      --> ${kids.length > 0 ? kids.join(', ') : 'none'}`);
      if (node.kind !== 'source') lines.push(`      <-- ${node.parents.join(', ')}`);
    }
    lines.push('');
    return lines;
  }
}

function describeGlobalStore(store: GlobalStoreDef & { readonly id: number }): string[] {
  return [
    `Sub-topology: ${store.id} for global store (will not generate tasks)`,
    `    Source: ${store.sourceName} (topics: [${store.topic}])`,
    `      --> ${store.processorName}`,
    `    Processor: ${store.processorName} (stores: [${store.storeName}])`,
    '      --> none',
    `      <-- ${store.sourceName}`,
  ];
}

/**
 * The nodes of a sub-topology in Kafka Streams' `NodeComparator` order: by the node's size
 * (itself and, through each child in the sub-topology, the child's size: a node reached on
 * two paths counts twice), largest first, then by name.
 */
function javaNodeOrder(
  names: readonly string[],
  children: ReadonlyMap<string, readonly string[]>,
): string[] {
  const inside = new Set(names);
  const sizes = new Map<string, number>();
  const size = (name: string): number => {
    let known = sizes.get(name);
    if (known === undefined) {
      known = 1;
      for (const child of children.get(name) ?? []) if (inside.has(child)) known += size(child);
      sizes.set(name, known);
    }
    return known;
  };
  return [...names].sort((a, b) => size(b) - size(a) || (a < b ? -1 : a > b ? 1 : 0));
}

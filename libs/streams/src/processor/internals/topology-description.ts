import type { GlobalStoreDef, NodeDef, Subtopology } from './topology-nodes';

/**
 * Renders sub-topologies as Kafka Streams' `TopologyDescription.toString()` does: the
 * sub-topologies and the global stores' by number (a global store has the number of its place
 * among them), each node with its topics or stores, children (`-->`) and parents (`<--`). As
 * there, the first header is indented by three spaces and the others by two, and a global
 * store's is not followed by a blank line.
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
    for (const name of sub.nodes) {
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

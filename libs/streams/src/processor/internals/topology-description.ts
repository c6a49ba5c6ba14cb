import type { GlobalStoreDef, NodeDef, Subtopology } from './topology-nodes';

/**
 * Renders sub-topologies the way Kafka Streams' `TopologyDescription.toString()` does:
 * sub-topology headers, then each node with its topics or stores, children (`-->`) and
 * parents (`<--`).
 */
export function describeTopology(
  subtopologies: readonly Subtopology[],
  nodes: ReadonlyMap<string, NodeDef>,
  children: ReadonlyMap<string, readonly string[]>,
  globalStores: readonly GlobalStoreDef[] = [],
): string {
  const lines = ['Topologies:'];
  for (const sub of subtopologies) {
    lines.push(`   Sub-topology: ${sub.id}`);
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
  }
  // Kafka numbers global stores among the sub-topologies; here they follow the last one.
  globalStores.forEach((store, i) => {
    lines.push(
      `  Sub-topology: ${subtopologies.length + i} for global store (will not generate tasks)`,
      `    Source: ${store.sourceName} (topics: [${store.topic}])`,
      `      --> ${store.processorName}`,
      `    Processor: ${store.processorName} (stores: [${store.storeName}])`,
      '      --> none',
      `      <-- ${store.sourceName}`,
    );
  });
  return `${lines.join('\n')}\n`;
}

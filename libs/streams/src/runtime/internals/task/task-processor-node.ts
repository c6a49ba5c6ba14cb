import type { Processor } from '../../../processor/processor';
import type { NodeDef, Subtopology } from '../../../processor/internals/topology-nodes';
import type { Topology } from '../../../processor/topology';
import type { ProcessorNodeMetrics } from '../metrics/processor-node-metrics';

/** One node of a task's running copy of its sub-topology. */
export interface TaskProcessorNode {
  readonly def: NodeDef;
  /** The processor instance (processor nodes only). */
  readonly processor?: Processor<unknown, unknown, unknown, unknown>;
  readonly children: TaskProcessorNode[];
  readonly childrenByName: Map<string, TaskProcessorNode>;
  /** Its sensors, when any is recorded at the client's level (set once the graph is linked). */
  metrics?: ProcessorNodeMetrics;
}

/**
 * Finds the processors whose `prefetch` should see records read by `source`: its children
 * that implement `prefetch`, looking through key-preserving processors.
 */
export function prefetchTargets(source: TaskProcessorNode): TaskProcessorNode[] {
  const targets: TaskProcessorNode[] = [];
  const visit = (node: TaskProcessorNode): void => {
    for (const child of node.children) {
      const processor = child.processor;
      if (!processor) continue;
      if (processor.prefetch) targets.push(child);
      // Records keep their keys through a key-preserving processor: its children may prefetch too.
      if (processor.keyPreserving) visit(child);
    }
  };
  visit(source);
  return targets;
}

/**
 * A task's running copy of `subtopology`: a node per processor (its processor supplied anew),
 * linked to its children, into `nodes` by name, and each source into `sourcesByTopic` by the
 * topic names `resolveTopic` gives; each node then gets the sensors `nodeMetrics` makes for it.
 */
export function processorGraph(
  topology: Topology,
  subtopology: Subtopology,
  resolveTopic: (topic: string) => string,
  nodes: Map<string, TaskProcessorNode>,
  sourcesByTopic: Map<string, TaskProcessorNode>,
  nodeMetrics: (node: TaskProcessorNode) => ProcessorNodeMetrics | undefined = () => undefined,
): void {
  const defs = topology.nodeDefs();
  const children = topology.childrenMap();
  for (const name of subtopology.nodes) {
    const def = defs.get(name)!;
    const processor = def.kind === 'processor' ? def.supplier() : undefined;
    nodes.set(name, { def, processor, children: [], childrenByName: new Map() });
  }
  for (const node of nodes.values()) {
    for (const childName of children.get(node.def.name) ?? []) {
      const child = nodes.get(childName)!;
      node.children.push(child);
      node.childrenByName.set(childName, child);
    }
    if (node.def.kind === 'source') {
      for (const topic of node.def.topics) sourcesByTopic.set(resolveTopic(topic), node);
    }
  }
  for (const node of nodes.values()) node.metrics = nodeMetrics(node);
}

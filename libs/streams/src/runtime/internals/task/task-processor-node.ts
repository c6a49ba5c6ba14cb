import type { Processor } from '../../../processor/processor';
import type { NodeDef } from '../../../processor/internals/topology-nodes';

/** One node of a task's running copy of its sub-topology. */
export interface TaskProcessorNode {
  readonly def: NodeDef;
  /** The processor instance (processor nodes only). */
  readonly processor?: Processor<unknown, unknown, unknown, unknown>;
  readonly children: TaskProcessorNode[];
  readonly childrenByName: Map<string, TaskProcessorNode>;
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

/** A node of a topology description, as `Topology.describe()` prints it. */
export type DescribedNode =
  | {
      readonly kind: 'source';
      readonly name: string;
      readonly topics: readonly string[];
      readonly children: readonly string[];
    }
  | {
      readonly kind: 'processor';
      readonly name: string;
      readonly stores: readonly string[];
      readonly children: readonly string[];
      readonly parents: readonly string[];
    }
  | {
      readonly kind: 'sink';
      readonly name: string;
      readonly topic: string;
      readonly parents: readonly string[];
    };

/** One sub-topology of a description, its nodes in the printed order. */
export interface DescribedSubtopology {
  readonly id: number;
  readonly nodes: readonly DescribedNode[];
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] extends readonly (infer E)[] ? E[] : T[K] };
type Building =
  | Mutable<Extract<DescribedNode, { kind: 'source' }>>
  | Mutable<Extract<DescribedNode, { kind: 'processor' }>>
  | Mutable<Extract<DescribedNode, { kind: 'sink' }>>;

const SUBTOPOLOGY = /^\s*Sub-topology:\s*(\d+)/;
const SOURCE = /^\s*Source:\s*(\S+)\s*\(topics:\s*\[(.*)\]\)/;
const PROCESSOR = /^\s*Processor:\s*(\S+)\s*\(stores:\s*\[(.*)\]\)/;
const SINK = /^\s*Sink:\s*(\S+)\s*\(topic:\s*(.*)\)\s*$/;
const CHILDREN = /^\s*-->\s*(.*)$/;
const PARENTS = /^\s*<--\s*(.*)$/;

/**
 * Reads the text `Topology.describe()` prints (Kafka Streams' `TopologyDescription` format,
 * which Java's `describe().toString()` prints too) back into sub-topologies and nodes: the
 * cluster page draws its graph from the same description a person would paste into a
 * visualiser. Lines it does not know (global stores, topic patterns) are skipped.
 */
export function parseTopologyDescription(text: string): DescribedSubtopology[] {
  const result: { id: number; nodes: Building[] }[] = [];
  let node: Building | undefined;
  for (const line of text.split('\n')) {
    let match: RegExpExecArray | null;
    if ((match = SUBTOPOLOGY.exec(line))) {
      result.push({ id: Number(match[1]), nodes: [] });
      node = undefined;
      continue;
    }
    const current = result.at(-1);
    if (!current) continue;
    if ((match = SOURCE.exec(line))) {
      node = { kind: 'source', name: match[1], topics: list(match[2]), children: [] };
    } else if ((match = PROCESSOR.exec(line))) {
      node = {
        kind: 'processor',
        name: match[1],
        stores: list(match[2]),
        children: [],
        parents: [],
      };
    } else if ((match = SINK.exec(line))) {
      node = { kind: 'sink', name: match[1], topic: match[2].trim(), parents: [] };
    } else if ((match = CHILDREN.exec(line)) && node && node.kind !== 'sink') {
      node.children = names(match[1]);
      continue;
    } else if ((match = PARENTS.exec(line)) && node && node.kind !== 'source') {
      node.parents = names(match[1]);
      continue;
    } else {
      continue;
    }
    current.nodes.push(node);
  }
  return result;
}

/** `a, b` inside brackets. */
function list(text: string): string[] {
  return text
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
}

/** `a, b` after an arrow; `none` is the empty list. */
function names(text: string): string[] {
  const items = list(text);
  return items.length === 1 && items[0] === 'none' ? [] : items;
}

import type { DescribedNode, DescribedSubtopology } from './topology-description.parser';

/** What a node of the graph stands for. */
export type GraphNodeKind =
  'topic' | 'repartition-topic' | 'source' | 'processor' | 'sink' | 'store';

/** A box of the graph, placed (pixels from the top left). */
export interface GraphNode {
  readonly id: string;
  readonly kind: GraphNodeKind;
  /** The node, topic or store name (a physical topic name for topics). */
  readonly name: string;
  /** What fits in the box: the name, shortened in the middle when long. */
  readonly label: string;
  /** A second line: a store's changelog topic. */
  readonly detail?: string;
  readonly subtopology: number;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** A line of the graph: records flowing (`flow`), or a processor using a store (`store`). */
export interface GraphEdge {
  readonly from: string;
  readonly to: string;
  readonly kind: 'flow' | 'store';
  /** Start and end points: `[x1, y1, x2, y2]`. */
  readonly points: readonly [number, number, number, number];
}

/** The frame of one sub-topology. */
export interface GraphFrame {
  readonly id: number;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** The topology as a laid-out graph: sub-topologies stacked, records flowing left to right. */
export interface TopologyGraph {
  readonly width: number;
  readonly height: number;
  readonly subtopologies: readonly GraphFrame[];
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly GraphEdge[];
}

/** How the graph names topics and stores at run time. */
export interface TopicRoles {
  /** The topic's name in Kafka (internal topics carry the application id). */
  physicalName(logical: string): string;
  /** Whether the topic is a repartition topic of the application. */
  isRepartition(logical: string): boolean;
  /** The store's changelog topic, or undefined when logging is off. */
  changelogOf(store: string): string | undefined;
}

const NODE_HEIGHT = 34;
const STORE_HEIGHT = 48;
const ROW_GAP = 14;
const COLUMN_GAP = 48;
const PADDING = 16;
const TITLE = 22;
const FRAME_GAP = 20;
const CHAR_WIDTH = 7;
const MAX_LABEL = 36;

/**
 * Lays a parsed topology description out as a graph: per sub-topology, columns by depth
 * (input topics, sources, processors by their longest path from a source, sinks, output
 * topics), each processor's stores under it with their changelog topic, sub-topologies stacked
 * top to bottom. Topics shared by two sub-topologies (repartition topics) appear in both.
 */
export function layoutTopology(
  subtopologies: readonly DescribedSubtopology[],
  roles: TopicRoles,
): TopologyGraph {
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const frames: GraphFrame[] = [];
  let top = 0;
  let width = 0;
  for (const sub of subtopologies) {
    const placed = layoutSubtopology(sub, roles, top);
    nodes.push(...placed.nodes);
    edges.push(...placed.edges);
    frames.push(placed.frame);
    top += placed.frame.height + FRAME_GAP;
    width = Math.max(width, placed.frame.width);
  }
  return { width, height: Math.max(0, top - FRAME_GAP), subtopologies: frames, nodes, edges };
}

interface Pending {
  readonly id: string;
  readonly kind: GraphNodeKind;
  readonly name: string;
  readonly detail?: string;
  readonly column: number;
}

function layoutSubtopology(
  sub: DescribedSubtopology,
  roles: TopicRoles,
  top: number,
): { nodes: GraphNode[]; edges: GraphEdge[]; frame: GraphFrame } {
  const byName = new Map(sub.nodes.map((n) => [n.name, n]));
  const depth = depthsOf(sub.nodes, byName);
  const pending: Pending[] = [];
  const links: { from: string; to: string; kind: 'flow' | 'store' }[] = [];
  const topicId = (topic: string) => `topic:${sub.id}:${topic}`;
  const addTopic = (topic: string, column: number) => {
    if (pending.some((p) => p.id === topicId(topic))) return;
    pending.push({
      id: topicId(topic),
      kind: roles.isRepartition(topic) ? 'repartition-topic' : 'topic',
      name: roles.physicalName(topic),
      column,
    });
  };
  const stores = new Set<string>();
  for (const node of sub.nodes) {
    const column = depth.get(node.name)! + 1;
    if (node.kind === 'source') {
      for (const topic of node.topics) {
        addTopic(topic, 0);
        links.push({ from: topicId(topic), to: `node:${node.name}`, kind: 'flow' });
      }
    }
    pending.push({ id: `node:${node.name}`, kind: node.kind, name: node.name, column });
    if (node.kind !== 'sink') {
      for (const child of node.children) {
        if (byName.has(child))
          links.push({ from: `node:${node.name}`, to: `node:${child}`, kind: 'flow' });
      }
    }
    if (node.kind === 'sink') {
      addTopic(node.topic, column + 1);
      links.push({ from: `node:${node.name}`, to: topicId(node.topic), kind: 'flow' });
    }
    if (node.kind === 'processor') {
      for (const store of node.stores) {
        if (!stores.has(store)) {
          stores.add(store);
          const changelog = roles.changelogOf(store);
          pending.push({
            id: `store:${store}`,
            kind: 'store',
            name: store,
            detail: changelog === undefined ? 'no changelog' : `changelog ${changelog}`,
            column,
          });
        }
        links.push({ from: `node:${node.name}`, to: `store:${store}`, kind: 'store' });
      }
    }
  }
  return place(sub.id, pending, links, top);
}

/** Each node's depth: sources 0, every other node one more than its deepest parent. */
function depthsOf(
  nodes: readonly DescribedNode[],
  byName: ReadonlyMap<string, DescribedNode>,
): Map<string, number> {
  const depth = new Map<string, number>();
  const visiting = new Set<string>();
  const of = (node: DescribedNode): number => {
    const known = depth.get(node.name);
    if (known !== undefined) return known;
    if (node.kind === 'source' || visiting.has(node.name)) return 0;
    visiting.add(node.name);
    const parents = node.parents.map((p) => byName.get(p)).filter((p) => p !== undefined);
    const value = parents.length === 0 ? 0 : 1 + Math.max(...parents.map(of));
    visiting.delete(node.name);
    depth.set(node.name, value);
    return value;
  };
  for (const node of nodes) depth.set(node.name, of(node));
  return depth;
}

function place(
  id: number,
  pending: readonly Pending[],
  links: readonly { from: string; to: string; kind: 'flow' | 'store' }[],
  top: number,
): { nodes: GraphNode[]; edges: GraphEdge[]; frame: GraphFrame } {
  const columns = Math.max(0, ...pending.map((p) => p.column)) + 1;
  const widths = Array.from({ length: columns }, () => 0);
  const sized = pending.map((p) => {
    const label = shorten(p.name);
    const detail = p.detail === undefined ? undefined : shorten(p.detail, MAX_LABEL + 6);
    const width = Math.max(
      90,
      (Math.max(label.length, (detail?.length ?? 0) * 0.86) + 3) * CHAR_WIDTH,
    );
    widths[p.column] = Math.max(widths[p.column], Math.round(width));
    return { ...p, label, detail };
  });
  const lefts: number[] = [];
  let x = PADDING;
  for (const w of widths) {
    lefts.push(x);
    x += w + (w > 0 ? COLUMN_GAP : 0);
  }
  const nextY = Array.from({ length: columns }, () => top + TITLE + PADDING);
  const nodes: GraphNode[] = sized.map((p) => {
    const height = p.kind === 'store' ? STORE_HEIGHT : NODE_HEIGHT;
    const node: GraphNode = {
      id: p.id,
      kind: p.kind,
      name: p.name,
      label: p.label,
      ...(p.detail === undefined ? {} : { detail: p.detail }),
      subtopology: id,
      x: lefts[p.column],
      y: nextY[p.column],
      width: widths[p.column],
      height,
    };
    nextY[p.column] += height + ROW_GAP;
    return node;
  });
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const edges: GraphEdge[] = links.flatMap(({ from, to, kind }) => {
    const a = byId.get(from);
    const b = byId.get(to);
    return a && b ? [{ from, to, kind, points: anchors(a, b) }] : [];
  });
  const right = Math.max(PADDING, ...nodes.map((n) => n.x + n.width)) + PADDING;
  const bottom = Math.max(top + TITLE + PADDING, ...nodes.map((n) => n.y + n.height)) + PADDING;
  return { nodes, edges, frame: { id, x: 0, y: top, width: right, height: bottom - top } };
}

/** Where a line between two boxes starts and ends: side to side, or bottom to top in a column. */
function anchors(a: GraphNode, b: GraphNode): [number, number, number, number] {
  if (b.x > a.x) return [a.x + a.width, a.y + a.height / 2, b.x, b.y + b.height / 2];
  if (b.x < a.x) return [a.x, a.y + a.height / 2, b.x + b.width, b.y + b.height / 2];
  return b.y > a.y
    ? [a.x + a.width / 2, a.y + a.height, b.x + b.width / 2, b.y]
    : [a.x + a.width / 2, a.y, b.x + b.width / 2, b.y + b.height];
}

/** A name that fits a box: long ones keep their start and end (`KSTREAM-AGGR…0000000002`). */
export function shorten(name: string, max = MAX_LABEL): string {
  if (name.length <= max) return name;
  const head = Math.ceil((max - 1) / 2);
  const tail = max - 1 - head;
  return `${name.slice(0, head)}…${name.slice(name.length - tail)}`;
}

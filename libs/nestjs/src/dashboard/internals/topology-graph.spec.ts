import { Grouped, Materialized, Serdes, StreamsBuilder } from '@nest-streams/streams';
import { parseTopologyDescription } from './topology-description.parser';
import { layoutTopology, shorten, type GraphNode, type TopicRoles } from './topology-graph';

/** A grouping by value (repartition), a count and a reduce sharing it, an output topic. */
function repartitioningTopology() {
  const builder = new StreamsBuilder();
  const grouped = builder
    .stream<string, string>('input')
    .groupBy((_k, v) => v, Grouped.with('by-value', Serdes.String(), Serdes.String()));
  const counts = grouped.count(Materialized.as('count-store'));
  grouped.reduce(
    (a, b) => a + b,
    Materialized.as<string, string>('reduce-store').withLoggingDisabled(),
  );
  counts.toStream().to('counts');
  return builder.build();
}

const roles: TopicRoles = {
  physicalName: (t) => (t === 'by-value-repartition' ? `app-${t}` : t),
  isRepartition: (t) => t === 'by-value-repartition',
  changelogOf: (s) => (s === 'count-store' ? `app-${s}-changelog` : undefined),
};

describe('the topology graph of the cluster page', () => {
  it("reads back every sub-topology and node of the description (in Kafka Streams' order)", () => {
    const parsed = parseTopologyDescription(repartitioningTopology().describe());
    expect(parsed).toEqual([
      {
        id: 0,
        nodes: [
          {
            kind: 'source',
            name: 'KSTREAM-SOURCE-0000000000',
            topics: ['input'],
            children: ['by-value'],
          },
          {
            kind: 'processor',
            name: 'by-value',
            stores: [],
            children: ['by-value-repartition-filter'],
            parents: ['KSTREAM-SOURCE-0000000000'],
          },
          {
            kind: 'processor',
            name: 'by-value-repartition-filter',
            stores: [],
            children: ['by-value-repartition-sink'],
            parents: ['by-value'],
          },
          {
            kind: 'sink',
            name: 'by-value-repartition-sink',
            topic: 'by-value-repartition',
            parents: ['by-value-repartition-filter'],
          },
        ],
      },
      {
        id: 1,
        nodes: [
          {
            kind: 'source',
            name: 'by-value-repartition-source',
            topics: ['by-value-repartition'],
            children: ['KSTREAM-AGGREGATE-0000000002', 'KSTREAM-REDUCE-0000000006'],
          },
          {
            kind: 'processor',
            name: 'KSTREAM-AGGREGATE-0000000002',
            stores: ['count-store'],
            children: ['KTABLE-TOSTREAM-0000000010'],
            parents: ['by-value-repartition-source'],
          },
          {
            kind: 'processor',
            name: 'KTABLE-TOSTREAM-0000000010',
            stores: [],
            children: ['KSTREAM-SINK-0000000011'],
            parents: ['KSTREAM-AGGREGATE-0000000002'],
          },
          {
            kind: 'processor',
            name: 'KSTREAM-REDUCE-0000000006',
            stores: ['reduce-store'],
            children: [],
            parents: ['by-value-repartition-source'],
          },
          {
            kind: 'sink',
            name: 'KSTREAM-SINK-0000000011',
            topic: 'counts',
            parents: ['KTABLE-TOSTREAM-0000000010'],
          },
        ],
      },
    ]);
  });

  it("reads Java's description too, skipping what it does not draw", () => {
    const java = [
      'Topologies:',
      '   Sub-topology: 0 for global store (will not generate tasks)',
      '    Source: g-source (topics: [globals])',
      '      --> g-proc',
      '   Sub-topology: 1',
      '    Source: KSTREAM-SOURCE-0000000000 (topics: [a, b])',
      '      --> none',
      '',
      'Global Stores:',
      '  none',
    ].join('\n');
    expect(parseTopologyDescription(java)).toEqual([
      {
        id: 0,
        nodes: [{ kind: 'source', name: 'g-source', topics: ['globals'], children: ['g-proc'] }],
      },
      {
        id: 1,
        nodes: [
          { kind: 'source', name: 'KSTREAM-SOURCE-0000000000', topics: ['a', 'b'], children: [] },
        ],
      },
    ]);
  });

  it('draws topics, nodes and stores left to right, and marks repartition and changelog topics', () => {
    const graph = layoutTopology(
      parseTopologyDescription(repartitioningTopology().describe()),
      roles,
    );
    const node = (id: string): GraphNode => {
      const found = graph.nodes.find((n) => n.id === id);
      if (!found) throw new Error(`no node ${id}`);
      return found;
    };
    expect(graph.nodes.map((n) => [n.id, n.kind, n.subtopology])).toEqual([
      ['topic:0:input', 'topic', 0],
      ['node:KSTREAM-SOURCE-0000000000', 'source', 0],
      ['node:by-value', 'processor', 0],
      ['node:by-value-repartition-filter', 'processor', 0],
      ['node:by-value-repartition-sink', 'sink', 0],
      ['topic:0:by-value-repartition', 'repartition-topic', 0],
      ['topic:1:by-value-repartition', 'repartition-topic', 1],
      ['node:by-value-repartition-source', 'source', 1],
      ['node:KSTREAM-AGGREGATE-0000000002', 'processor', 1],
      ['store:count-store', 'store', 1],
      ['node:KTABLE-TOSTREAM-0000000010', 'processor', 1],
      ['node:KSTREAM-REDUCE-0000000006', 'processor', 1],
      ['store:reduce-store', 'store', 1],
      ['node:KSTREAM-SINK-0000000011', 'sink', 1],
      ['topic:1:counts', 'topic', 1],
    ]);
    // Physical names and changelogs.
    expect(node('topic:0:by-value-repartition').name).toBe('app-by-value-repartition');
    expect(node('store:count-store').detail).toBe('changelog app-count-store-changelog');
    expect(node('store:reduce-store').detail).toBe('no changelog');
    // Columns by depth: records flow left to right; stores sit under their processor.
    const flow = graph.edges.filter((e) => e.kind === 'flow');
    for (const edge of flow) expect(node(edge.to).x).toBeGreaterThan(node(edge.from).x);
    expect(node('store:count-store').x).toBe(node('node:KSTREAM-AGGREGATE-0000000002').x);
    expect(node('store:count-store').y).toBeGreaterThan(
      node('node:KSTREAM-AGGREGATE-0000000002').y,
    );
    expect(graph.edges.filter((e) => e.kind === 'store').map((e) => [e.from, e.to])).toEqual([
      ['node:KSTREAM-AGGREGATE-0000000002', 'store:count-store'],
      ['node:KSTREAM-REDUCE-0000000006', 'store:reduce-store'],
    ]);
    expect(flow).toHaveLength(11);
    // Every edge starts and ends on its boxes' borders.
    const edge = graph.edges.find((e) => e.from === 'topic:0:input')!;
    const input = node('topic:0:input');
    expect(edge.points).toEqual([
      input.x + input.width,
      input.y + input.height / 2,
      node('node:KSTREAM-SOURCE-0000000000').x,
      node('node:KSTREAM-SOURCE-0000000000').y + node('node:KSTREAM-SOURCE-0000000000').height / 2,
    ]);
    // Sub-topologies are stacked, each box inside its frame, none overlapping another.
    const [first, second] = graph.subtopologies;
    expect(second.y).toBeGreaterThanOrEqual(first.y + first.height);
    for (const n of graph.nodes) {
      const frame = graph.subtopologies.find((f) => f.id === n.subtopology)!;
      expect(n.x + n.width).toBeLessThanOrEqual(frame.x + frame.width);
      expect(n.y + n.height).toBeLessThanOrEqual(frame.y + frame.height);
      for (const other of graph.nodes) {
        if (other === n) continue;
        const apart =
          other.x >= n.x + n.width ||
          n.x >= other.x + other.width ||
          other.y >= n.y + n.height ||
          n.y >= other.y + other.height;
        expect(apart).toBe(true);
      }
    }
    expect(graph.width).toBe(Math.max(first.width, second.width));
    expect(graph.height).toBe(second.y + second.height);
  });

  it('shortens long names in the middle, keeping their start and end', () => {
    const short = shorten('KSTREAM-AGGREGATE-STATE-STORE-0000000002-repartition', 20);
    expect(short).toBe('KSTREAM-AG…partition');
    expect(short).toHaveLength(20);
    expect(shorten('short', 20)).toBe('short');
  });
});

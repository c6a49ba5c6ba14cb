// @ts-check
// The topology graph: sub-topology frames, boxes placed by the server, lines between them.

/** @typedef {import('../../src/dashboard/internals/topology-view').TopologyView} TopologyView */
/** @typedef {import('../../src/dashboard/internals/topology-graph').GraphNodeKind} GraphNodeKind */

const MONO = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';

/** @type {Record<GraphNodeKind, { fill: string, stroke: string, name: string }>} */
const NODE_STYLES = {
  topic: { fill: '#fff8c5', stroke: '#9a6700', name: 'topic' },
  'repartition-topic': { fill: '#fff1e5', stroke: '#bc4c00', name: 'repartition topic' },
  source: { fill: '#ddf4ff', stroke: '#0969da', name: 'source' },
  processor: { fill: '#ffffff', stroke: '#59636e', name: 'processor' },
  sink: { fill: '#fbefff', stroke: '#8250df', name: 'sink' },
  store: { fill: '#dafbe1', stroke: '#1a7f37', name: 'state store (and changelog topic)' },
};

/**
 * Draws the topology's graph and legend, and shows its description text.
 *
 * @param {TopologyView} view
 */
function renderTopology(view) {
  const { graph } = view;
  const marker = svg(
    'marker',
    {
      id: 'arrow',
      viewBox: '0 0 10 10',
      refX: 10,
      refY: 5,
      markerWidth: 7,
      markerHeight: 7,
      orient: 'auto',
    },
    svg('path', { d: 'M0 0 L10 5 L0 10 z', fill: '#59636e' }),
  );
  const frames = graph.subtopologies.map((f) =>
    svg(
      'g',
      { 'data-subtopology': f.id },
      svg('rect', {
        x: f.x + 4,
        y: f.y + 4,
        width: f.width - 8,
        height: f.height - 8,
        rx: 8,
        fill: '#f6f8fa',
        stroke: '#d1d9e0',
      }),
      svg(
        'text',
        { x: f.x + 16, y: f.y + 22, 'font-size': 12, 'font-weight': 600, fill: '#59636e' },
        `Sub-topology ${f.id}`,
      ),
    ),
  );
  const edges = graph.edges.map((e) => {
    const [x1, y1, x2, y2] = e.points;
    const bend = Math.abs(x2 - x1) / 2;
    const d =
      x1 === x2
        ? `M${x1} ${y1} L${x2} ${y2}`
        : `M${x1} ${y1} C${x1 + bend} ${y1} ${x2 - bend} ${y2} ${x2} ${y2}`;
    return svg('path', {
      d,
      fill: 'none',
      stroke: e.kind === 'store' ? '#1a7f37' : '#59636e',
      'stroke-width': 1.3,
      'stroke-dasharray': e.kind === 'store' ? '4 3' : undefined,
      'marker-end': e.kind === 'flow' ? 'url(#arrow)' : undefined,
    });
  });
  const nodes = graph.nodes.map((n) => {
    const style = NODE_STYLES[n.kind];
    const topic = n.kind === 'topic' || n.kind === 'repartition-topic';
    const textY = n.detail ? n.y + 19 : n.y + n.height / 2 + 4;
    return svg(
      'g',
      { 'data-node': n.name, 'data-kind': n.kind },
      svg('title', {}, `${style.name}: ${n.name}${n.detail ? `\n${n.detail}` : ''}`),
      svg('rect', {
        x: n.x,
        y: n.y,
        width: n.width,
        height: n.height,
        rx: topic ? n.height / 2 : n.kind === 'store' ? 10 : 4,
        fill: style.fill,
        stroke: style.stroke,
        'stroke-dasharray': n.kind === 'repartition-topic' ? '5 3' : undefined,
      }),
      svg('text', { x: n.x + 10, y: textY, 'font-size': 12, 'font-family': MONO }, n.label),
      n.detail
        ? svg(
            'text',
            { x: n.x + 10, y: n.y + 36, 'font-size': 10, 'font-family': MONO, fill: '#59636e' },
            n.detail,
          )
        : null,
    );
  });
  const picture = svg(
    'svg',
    {
      width: graph.width,
      height: graph.height,
      viewBox: `0 0 ${graph.width} ${graph.height}`,
      role: 'img',
    },
    svg('defs', {}, marker),
    ...frames,
    ...edges,
    ...nodes,
  );
  picture.setAttribute('aria-label', 'topology graph');
  byId('graph').replaceChildren(picture);
  byId('legend').replaceChildren(
    ...Object.values(NODE_STYLES).map((style) => {
      const swatch = h('i');
      swatch.style.background = style.fill;
      swatch.style.borderColor = style.stroke;
      return h('span', {}, swatch, style.name);
    }),
  );
  byId('description').textContent = view.description;
}

/**
 * The element with `id` (the page has every one this script uses).
 *
 * @param {string} id
 * @returns {HTMLElement}
 */
function byId(id) {
  const element = document.getElementById(id);
  if (!element) throw new Error(`the page has no #${id}`);
  return element;
}

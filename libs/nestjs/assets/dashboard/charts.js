// @ts-check
// Small line charts of the live figures: one line per series over a time window, gaps where a
// figure is unknown, the latest value of each series beside its name.

const PALETTE = ['#0969da', '#1a7f37', '#bc4c00', '#8250df', '#cf222e', '#1b7c83', '#9a6700'];

/**
 * @typedef {object} Series
 * @property {string} name
 * @property {[number, number | null][]} points `[epoch ms, value]`, oldest first
 * @property {boolean} [dashed]
 * @property {string} [color]
 */

/**
 * @typedef {object} ChartSpec
 * @property {string} title
 * @property {Series[]} series
 * @property {number} from epoch ms of the left edge
 * @property {number} to epoch ms of the right edge
 * @property {(value: number) => string} format
 * @property {number} [max] a fixed top of the scale (e.g. 1 for ratios)
 * @property {string} [empty] what to say when no series has a value
 */

const WIDTH = 320;
const HEIGHT = 90;
const TOP = 4;
const BOTTOM = 4;

/**
 * A chart of `spec` as a figure: title, lines, scale top, and each series' latest value.
 *
 * @param {ChartSpec} spec
 * @returns {HTMLElement}
 */
function lineChart(spec) {
  const values = spec.series.flatMap((s) => s.points.map((p) => p[1])).filter(isNumber);
  const top = spec.max ?? niceCeiling(Math.max(0, ...values));
  const x = (/** @type {number} */ t) =>
    ((t - spec.from) / Math.max(1, spec.to - spec.from)) * WIDTH;
  const y = (/** @type {number} */ v) =>
    TOP + (1 - (top === 0 ? 0 : v / top)) * (HEIGHT - TOP - BOTTOM);
  const lines = spec.series.map((series, index) => {
    const color = series.color ?? PALETTE[index % PALETTE.length];
    let path = '';
    let pen = false;
    for (const [t, v] of series.points) {
      if (!isNumber(v) || t < spec.from) {
        pen = false;
        continue;
      }
      path += `${pen ? 'L' : 'M'}${x(t).toFixed(1)} ${y(v).toFixed(1)} `;
      pen = true;
    }
    const last = [...series.points].reverse().find(([t, v]) => isNumber(v) && t >= spec.from);
    return svg(
      'g',
      {},
      svg('path', {
        d: path.trim() || undefined,
        fill: 'none',
        stroke: color,
        'stroke-width': 1.6,
        'stroke-dasharray': series.dashed ? '4 3' : undefined,
      }),
      last && isNumber(last[1])
        ? svg('circle', { cx: x(last[0]), cy: y(last[1]), r: 2, fill: color })
        : null,
    );
  });
  const chart = svg(
    'svg',
    { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, preserveAspectRatio: 'none', role: 'img' },
    svg('line', { x1: 0, x2: WIDTH, y1: y(0), y2: y(0), stroke: '#d1d9e0' }),
    svg('line', { x1: 0, x2: WIDTH, y1: TOP, y2: TOP, stroke: '#eaeef2' }),
    ...lines,
  );
  chart.setAttribute('aria-label', spec.title);
  const legend = spec.series.map((series, index) => {
    const last = [...series.points].reverse().find((p) => isNumber(p[1]));
    const color = series.color ?? PALETTE[index % PALETTE.length];
    const swatch = h('b', {}, series.dashed ? '┄ ' : '— ');
    swatch.style.color = color;
    return h(
      'span',
      { 'data-series': series.name },
      swatch,
      `${series.name}: `,
      last && isNumber(last[1]) ? spec.format(last[1]) : '–',
    );
  });
  return h(
    'figure',
    { class: 'chart', 'data-chart': spec.title },
    h('h3', {}, spec.title),
    h('div', { class: 'axis' }, h('span', {}, spec.format(top))),
    chart,
    h('div', { class: 'axis' }, h('span', {}, ago(spec.from, spec.to)), h('span', {}, 'now')),
    h(
      'figcaption',
      { class: 'series' },
      ...(legend.length > 0 ? legend : [h('span', {}, spec.empty ?? 'no figures yet')]),
    ),
  );
}

/**
 * @param {unknown} value
 * @returns {value is number}
 */
function isNumber(value) {
  return typeof value === 'number' && Number.isFinite(value);
}

/**
 * The scale's top: 1, 2 or 5 times a power of ten, at least `value`.
 *
 * @param {number} value
 */
function niceCeiling(value) {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

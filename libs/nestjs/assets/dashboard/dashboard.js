// @ts-check
// The page's loop: the topology once, then the cluster view every two seconds (each instance's
// report comes through the instance serving the page), drawn as cards, tables and charts.

/** @typedef {import('../../src/dashboard/internals/figures-sampler').FigureSample} FigureSample */

const REFRESH_MS = 2000;

/** The page's data path: `<page path>/api` (the page may be served with or without a slash). */
const API = `${location.pathname.replace(/\/+$/, '')}/api`;

/**
 * @param {string} path
 * @returns {Promise<any>}
 */
async function getJson(path) {
  const response = await fetch(`${API}/${path}`, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${response.statusText}`);
  return response.json();
}

/**
 * The live figures of every instance that reported, as charts over the figures' window.
 *
 * @param {ClusterView} view
 */
function renderFigures(view) {
  const reporting = view.instances.filter((i) => i.report && i.status === 'up');
  // The last figuresWindowMs, or less while the instances have not sampled that long yet.
  const first = Math.min(
    view.at,
    ...reporting.flatMap((i) => (i.report?.figures ?? []).map((s) => s.at)),
  );
  const from = Math.max(view.at - view.figuresWindowMs, Math.min(first, view.at - 60_000));
  /**
   * @param {(s: FigureSample) => number | null} pick
   * @returns {Series[]}
   */
  const perInstance = (pick) =>
    reporting.map((i) => ({
      name: i.host,
      points: (i.report?.figures ?? []).map(
        (s) => /** @type {[number, number | null]} */ ([s.at, pick(s)]),
      ),
    }));
  /** @type {Map<string, [number, number | null][]>} */
  const lags = new Map();
  for (const instance of reporting) {
    for (const sample of instance.report?.figures ?? []) {
      for (const { topic, partition, lag } of sample.inputLag ?? []) {
        const name = `${topic}-${partition}`;
        if (!lags.has(name)) lags.set(name, []);
        lags.get(name)?.push([sample.at, lag]);
      }
    }
  }
  const inputLag = [...lags]
    .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
    .map(([name, points]) => ({ name, points: points.sort((a, b) => a[0] - b[0]) }));
  const queries = reporting.flatMap((i, index) => {
    const color = PALETTE[index % PALETTE.length];
    const points = i.report?.figures ?? [];
    return [
      {
        name: `${i.host} queries/s`,
        color,
        points: points.map((s) => /** @type {[number, number | null]} */ ([s.at, s.queriesPerSec])),
      },
      {
        name: `${i.host} 503/s`,
        color,
        dashed: true,
        points: points.map(
          (s) => /** @type {[number, number | null]} */ ([s.at, s.unavailablePerSec]),
        ),
      },
    ];
  });
  const rate = (/** @type {number} */ v) => `${formatNumber(v)}/s`;
  byId('charts').replaceChildren(
    lineChart({
      title: 'Processed records/s',
      series: perInstance((s) => s.processedPerSec),
      from,
      to: view.at,
      format: rate,
    }),
    lineChart({
      title: 'Commit latency',
      series: perInstance((s) => s.commitLatencyMs),
      from,
      to: view.at,
      format: (v) => `${formatNumber(v)} ms`,
    }),
    lineChart({
      title: 'Cache hit ratio',
      series: perInstance((s) => s.cacheHitRatio),
      from,
      to: view.at,
      max: 1,
      format: (v) => `${formatNumber(v * 100, 0)}%`,
    }),
    lineChart({
      title: 'Input lag per partition',
      series: inputLag,
      from,
      to: view.at,
      format: (v) => `${formatNumber(v, 0)} records`,
    }),
    lineChart({ title: 'Queries and 503s', series: queries, from, to: view.at, format: rate }),
  );
}

/** Fetches and draws the cluster view, then again in two seconds. */
async function refresh() {
  const status = byId('status');
  try {
    /** @type {ClusterView} */
    const view = await getJson('cluster');
    renderCluster(view);
    renderFigures(view);
    const up = view.instances.filter((i) => i.status !== 'left').length;
    status.textContent = `${up} instance${up === 1 ? '' : 's'} · page served by ${view.servedBy} · updated ${clock(view.at)}`;
    status.classList.remove('error');
  } catch (error) {
    status.textContent = `cannot read the cluster from this instance (${String(error)}): retrying`;
    status.classList.add('error');
  } finally {
    setTimeout(() => void refresh(), REFRESH_MS);
  }
}

async function start() {
  try {
    /** @type {TopologyView} */
    const topology = await getJson('topology');
    byId('application').textContent = topology.applicationId;
    renderTopology(topology);
    setUpLookup(API, topology);
  } catch (error) {
    byId('graph').replaceChildren(h('p', { class: 'error' }, `no topology: ${String(error)}`));
  }
  await refresh();
}

void start();

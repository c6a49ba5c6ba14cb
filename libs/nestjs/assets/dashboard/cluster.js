// @ts-check
// The cluster: one card per instance (status, client state, last rebalance, tasks), then one
// table per store: an instance per row, a partition per column, each copy's role, lag and
// restore progress, and a last row counting each partition's active owners.

/** @typedef {import('../../src/dashboard/internals/cluster-view.builder').ClusterView} ClusterView */
/** @typedef {import('../../src/dashboard/internals/cluster-view.builder').InstanceView} InstanceView */
/** @typedef {import('../../src/dashboard/internals/cluster-view.builder').PartitionCopy} PartitionCopy */

/** @type {Record<InstanceView['status'], string>} */
const STATUS_TEXT = {
  up: 'answering',
  unreachable: 'not answering',
  left: 'left the group',
};

/**
 * @param {ClusterView} view
 */
function renderCluster(view) {
  byId('instances').replaceChildren(...view.instances.map((i) => instanceCard(i, view.at)));
  byId('stores').replaceChildren(...view.stores.map((s) => storeTable(s, view.instances)));
}

/**
 * @param {InstanceView} instance
 * @param {number} now
 */
function instanceCard(instance, now) {
  const report = instance.report;
  const lines = [];
  if (instance.status === 'left') {
    lines.push(
      h('p', {}, `last listed ${ago(instance.lastSeenAt, now)}; its tasks moved to the others`),
    );
  } else if (report) {
    lines.push(h('p', {}, 'state ', h('strong', { 'data-field': 'state' }, report.state)));
    const rebalance =
      report.lastRebalanceAt === null
        ? 'no rebalance yet'
        : `last rebalance ${ago(report.lastRebalanceAt, now)}` +
          (report.lastRebalanceMs === null
            ? ' (in progress)'
            : `, took ${duration(report.lastRebalanceMs)}`) +
          ` · ${report.rebalances} in all`;
    lines.push(h('p', { 'data-field': 'rebalance' }, rebalance));
    const t = report.tasks;
    lines.push(
      h(
        'p',
        { 'data-field': 'tasks' },
        `tasks: ${t.active.length} active, ${t.standby.length - t.warmup.length} standby, ${t.warmup.length} warm-up` +
          (t.restoring.length > 0 ? `, ${t.restoring.length} restoring` : ''),
      ),
    );
  }
  if (instance.problem)
    lines.push(h('p', { class: 'error', 'data-field': 'problem' }, instance.problem));
  return h(
    'article',
    {
      class: `instance ${instance.status}`,
      'data-instance': instance.host,
      'data-status': instance.status,
    },
    h(
      'h3',
      {},
      h('span', { class: 'mono' }, instance.host),
      ' ',
      h('span', { class: `pill ${instance.status}` }, STATUS_TEXT[instance.status]),
      instance.self ? ' ' : null,
      instance.self ? h('span', { class: 'pill self' }, 'this page') : null,
    ),
    ...lines,
  );
}

/**
 * @param {{ name: string, partitions: readonly number[] }} store
 * @param {readonly InstanceView[]} instances
 */
function storeTable(store, instances) {
  const head = h(
    'tr',
    {},
    h('th', {}, 'instance'),
    ...store.partitions.map((p) => h('th', { scope: 'col' }, `partition ${p}`)),
  );
  const rows = instances.map((instance) => {
    const copies = instance.stores[store.name] ?? [];
    return h(
      'tr',
      { 'data-instance': instance.host, class: instance.status },
      h(
        'th',
        { scope: 'row', class: 'mono' },
        instance.host,
        instance.status === 'up'
          ? null
          : h('div', { class: 'muted' }, STATUS_TEXT[instance.status]),
      ),
      ...store.partitions.map((p) =>
        copyCell(
          copies.find((c) => c.partition === p),
          p,
        ),
      ),
    );
  });
  const owners = store.partitions.map((p) => {
    const count = instances.filter(
      (i) =>
        i.status !== 'left' &&
        (i.stores[store.name] ?? []).some((c) => c.partition === p && c.role === 'active'),
    ).length;
    return h(
      'td',
      { class: count === 1 ? 'owners' : 'owners missing', 'data-partition': p },
      count === 1 ? '1 active' : count === 0 ? 'no active owner' : `${count} active`,
    );
  });
  return h(
    'div',
    { 'data-store': store.name },
    h('h3', {}, 'Store ', h('span', { class: 'mono' }, store.name)),
    h(
      'table',
      {},
      h('thead', {}, head),
      h('tbody', {}, ...rows, h('tr', { class: 'owners' }, h('th', {}, 'owners'), ...owners)),
    ),
  );
}

/**
 * @param {PartitionCopy | undefined} copy
 * @param {number} partition
 */
function copyCell(copy, partition) {
  if (!copy) return h('td', { class: 'copy', 'data-partition': partition });
  const lag = copy.lag === undefined ? 'lag ?' : `lag ${formatNumber(copy.lag, 0)}`;
  const parts = [];
  if (copy.role === 'active') {
    parts.push(h('div', {}, 'active'));
    if (copy.restoring) {
      const share = copy.restoring.total === 0 ? 1 : copy.restoring.restored / copy.restoring.total;
      const fill = h('span');
      fill.style.width = `${Math.round(share * 100)}%`;
      parts.push(
        h(
          'div',
          {},
          `restoring ${Math.floor(share * 100)}% (${formatNumber(copy.restoring.restored, 0)} of ${formatNumber(copy.restoring.total, 0)})`,
        ),
        h(
          'div',
          { class: 'bar', role: 'progressbar', 'aria-valuenow': Math.round(share * 100) },
          fill,
        ),
      );
    } else if (copy.lag !== undefined) {
      parts.push(h('div', {}, `restoring, ${lag}`));
    }
  } else {
    parts.push(h('div', {}, copy.role === 'warmup' ? 'warm-up' : 'standby'), h('div', {}, lag));
  }
  return h(
    'td',
    { class: `copy ${copy.role}`, 'data-partition': partition, 'data-role': copy.role },
    ...parts,
  );
}

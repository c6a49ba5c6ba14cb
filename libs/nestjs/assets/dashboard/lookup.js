// @ts-check
// Look up a key: where it lives (partition, active and standby hosts) and what each copy
// answers, a standby's answer marked stale with its lag. Off unless the module turns it on; on
// the application's port it asks for a cluster secret (sent as a bearer token, kept nowhere).

/** @typedef {import('../../src/dashboard/internals/key-inspector').KeyInspection} KeyInspection */
/** @typedef {import('../../src/dashboard/internals/key-inspector').CopyAnswer} CopyAnswer */

/**
 * Fills the store list and answers the form.
 *
 * @param {string} api the page's data path (`/streams/ui/api`)
 * @param {TopologyView} topology
 */
function setUpLookup(api, topology) {
  const select = /** @type {HTMLSelectElement} */ (byId('lookup-store'));
  const stores = topology.stores.filter((s) => s.kind === 'key-value');
  select.replaceChildren(...stores.map((s) => h('option', { value: s.name }, s.name)));
  const form = /** @type {HTMLFormElement} */ (byId('lookup-form'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const key = /** @type {HTMLInputElement} */ (byId('lookup-key')).value;
    void lookUp(api, select.value, key);
  });
}

/**
 * @param {string} api
 * @param {string} store
 * @param {string} key
 */
async function lookUp(api, store, key) {
  const result = byId('lookup-result');
  result.replaceChildren(h('p', { class: 'muted' }, `looking up ${key}…`));
  try {
    const query = new URLSearchParams({ store, key });
    const secret = /** @type {HTMLInputElement} */ (byId('lookup-secret')).value;
    /** @type {Record<string, string>} */
    const headers = { accept: 'application/json' };
    if (secret !== '') headers.authorization = `Bearer ${secret}`;
    const response = await fetch(`${api}/lookup?${query.toString()}`, { headers });
    const body = await response.json();
    if (!response.ok) {
      const message = typeof body?.message === 'string' ? body.message : response.statusText;
      // Asked for a cluster secret: show its field.
      if (response.status === 401) byId('lookup-secret-field').hidden = false;
      result.replaceChildren(h('p', { class: 'error' }, `${response.status}: ${message}`));
      return;
    }
    result.replaceChildren(...inspection(/** @type {KeyInspection} */ (body)));
  } catch (error) {
    result.replaceChildren(h('p', { class: 'error' }, `the look-up failed: ${String(error)}`));
  }
}

/**
 * @param {KeyInspection} found
 * @returns {HTMLElement[]}
 */
function inspection(found) {
  if (found.partition === null) {
    return [
      h(
        'p',
        { class: 'error' },
        `no instance is the confirmed owner of ${found.key} right now (rebalancing): try again shortly`,
      ),
    ];
  }
  const where = h(
    'p',
    { 'data-field': 'placement' },
    'key ',
    h('strong', { class: 'mono' }, found.key),
    ` of ${found.store}: partition `,
    h('strong', { 'data-field': 'partition' }, found.partition),
    ' · active on ',
    h('span', { class: 'mono', 'data-field': 'active-host' }, found.activeHost ?? 'none'),
    ' · standbys on ',
    h(
      'span',
      { class: 'mono', 'data-field': 'standby-hosts' },
      found.standbyHosts.length > 0 ? found.standbyHosts.join(', ') : 'none',
    ),
  );
  const rows = found.copies.map((copy) =>
    h(
      'tr',
      { 'data-copy': copy.host, 'data-role': copy.role },
      h('td', { class: 'mono' }, copy.host),
      h('td', {}, copy.role),
      h('td', { class: 'mono', 'data-field': 'value' }, answerText(copy)),
      h('td', { 'data-field': 'freshness' }, freshness(copy)),
    ),
  );
  const table = h(
    'table',
    {},
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', {}, 'instance'),
        h('th', {}, 'copy'),
        h('th', {}, 'answer'),
        h('th', {}, ''),
      ),
    ),
    h('tbody', {}, ...rows),
  );
  const note = found.copies.some((c) => c.answer?.stale)
    ? h(
        'p',
        { class: 'muted' },
        "A standby's lag counts the changelog records it has not applied yet. Updates the active copy still caches until its next commit are not in the changelog: a standby at lag 0 can be up to one commit interval behind.",
      )
    : null;
  return note ? [where, table, note] : [where, table];
}

/**
 * @param {CopyAnswer} copy
 */
function answerText(copy) {
  if (copy.error) return h('span', { class: 'error' }, `${copy.error.code}: ${copy.error.message}`);
  if (!copy.answer?.found) return h('span', { class: 'muted' }, 'no value in this copy');
  return copy.answer.value ?? '';
}

/**
 * @param {CopyAnswer} copy
 */
function freshness(copy) {
  if (!copy.answer) return '';
  if (copy.answer.stale)
    return h('span', { class: 'stale' }, `stale · lag ${formatNumber(copy.answer.lag, 0)}`);
  return 'current';
}

/**
 * The cluster page as a person sees it: two order-stats instances against the real broker,
 * the page served on the management port with its key look-up on (MANAGEMENT_PORT,
 * DASHBOARD_LOOKUP=true) and opened in headless Chromium, read from what it shows (the text of its cards and
 * tables); then one instance stopped, and the page followed until it shows the instance gone
 * and its tasks moved. Screenshots go to DASHBOARD_SCREENSHOTS (default: a temporary folder).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { freePort } from '@nest-streams/testing/kafka';
import { OrderStatsInstance } from '../../tools/instances/order-stats-instance';
import { HeadlessChromium } from '../support/headless-chromium';
import { readyAndRunning } from '../support/health';
import { HTTP_PLATFORMS } from '../support/http-platforms';
import { brokers, KafkaTestContext } from '../support/kafka-test-context';
import { waitFor } from '../support/wait-for';

const PARTITIONS = [0, 1, 2, 3, 4, 5];
const USERS = Array.from({ length: 12 }, (_, i) => `user-${String(i).padStart(3, '0')}`);

/** The text of each instance's card, by instance. */
async function cards(page: Page): Promise<Record<string, string>> {
  const shown: Record<string, string> = {};
  for (const card of await page.locator('article[data-instance]').all()) {
    shown[(await card.getAttribute('data-instance')) ?? '?'] = await card.innerText();
  }
  return shown;
}

/** The text of each partition's cell of a table row. */
async function cellTexts(row: Locator): Promise<string[]> {
  const cells = await row.locator('td[data-partition]').all();
  return Promise.all(cells.map(async (cell) => (await cell.innerText()).trim()));
}

/** A store's table as shown: its columns, per instance the text of each partition's cell, the owners row. */
async function storeTable(
  page: Page,
  store: string,
): Promise<{ columns: string[]; rows: Record<string, string[]>; owners: string[] }> {
  const table = page.locator(`[data-store="${store}"] table`);
  const columns = (await table.locator('thead th').allInnerTexts()).map((t) => t.trim());
  const rows: Record<string, string[]> = {};
  for (const row of await table.locator('tbody tr[data-instance]').all()) {
    rows[(await row.getAttribute('data-instance')) ?? '?'] = await cellTexts(row);
  }
  return { columns, rows, owners: await cellTexts(table.locator('tbody tr.owners')) };
}

describe.each(HTTP_PLATFORMS)('the cluster page in a browser, on %s', (platform) => {
  const ctx = new KafkaTestContext();
  const dirs: string[] = [];
  const instances: OrderStatsInstance[] = [];
  let browser: HeadlessChromium | undefined;
  const shots = process.env.DASHBOARD_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), 'cluster-page-'));

  afterAll(async () => {
    await browser?.close();
    await Promise.all(instances.map((i) => i.stop()));
    await ctx.cleanup();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('shows both instances, one active owner per partition, standby lags and a key as GET /stats/:key answers it; then an instance gone and its tasks moved', async () => {
    const input = await ctx.createTopic(ctx.topicName('dashboard-events'), PARTITIONS.length);
    const env = {
      HTTP_PLATFORM: platform,
      KAFKA_BROKERS: brokers().join(','),
      APPLICATION_ID: ctx.applicationId,
      INPUT_TOPIC: input,
      NUM_STANDBY_REPLICAS: '1',
      COMMIT_INTERVAL_MS: '200',
    };
    // The page on each instance's management port (as deployed), its key look-up on.
    const managementPorts: number[] = [];
    for (let i = 0; i < 2; i++) {
      const managementPort = await freePort();
      managementPorts.push(managementPort);
      const started = await OrderStatsInstance.startMany(
        1,
        { ...env, MANAGEMENT_PORT: String(managementPort), DASHBOARD_LOOKUP: 'true' },
        dirs,
      );
      instances.push(...started);
    }
    const [a, b] = instances;
    const output = () =>
      instances.map((i) => `--- ${i.endpoint}\n${i.output.slice(-3000)}`).join('\n');
    await waitFor(
      async () =>
        (await Promise.all(instances.map((i) => i.request('/health/ready')))).every(
          readyAndRunning,
        ),
      120_000,
      'both instances ready',
      { context: output },
    );
    const truth = new Map<string, { count: number; sum: number }>();
    const producer = ctx.kafka.producer();
    await producer.connect();
    await producer.send({
      topic: input,
      messages: Array.from({ length: 600 }, (_, i) => {
        const userId = USERS[i % USERS.length];
        const amount = (i % 7) + 0.5;
        const t = truth.get(userId) ?? { count: 0, sum: 0 };
        truth.set(userId, { count: t.count + 1, sum: t.sum + amount });
        return { key: userId, value: JSON.stringify({ userId, amount }) };
      }),
    });
    await producer.disconnect();
    await waitFor(
      async () => {
        for (const [user, stats] of truth) {
          const answer = await a.request(`/stats/${user}`);
          if (JSON.stringify(answer.body) !== JSON.stringify(stats)) return false;
        }
        return true;
      },
      60_000,
      'every event processed',
      { context: output },
    );

    // Not on the client port: only on the management port.
    expect((await a.request('/streams/ui')).status).toBe(404);
    browser = await HeadlessChromium.launch();
    const page = await browser.open(`http://127.0.0.1:${managementPorts[0]}/streams/ui`);

    // Both instances listed, both answering.
    await waitFor(
      async () => {
        const shown = await cards(page);
        return [a, b].every((i) => shown[i.endpoint]?.includes('answering'));
      },
      30_000,
      'both instances on the page',
    );
    const card = (await cards(page))[a.endpoint];
    expect(card).toContain('state RUNNING');
    expect(card).toMatch(/last rebalance \d+ s ago, took [\d.]+ m?s · \d+ in all/);
    expect(card).toMatch(/tasks: \d active, \d standby, 0 warm-up/);

    // Every partition of stats-store has exactly one active owner; the other holds a standby
    // copy, its lag shown.
    await waitFor(
      async () => {
        const { rows } = await storeTable(page, 'stats-store');
        return PARTITIONS.every((p) =>
          Object.values(rows).some((cells) => /^standby\nlag \d+$/.test(cells[p] ?? '')),
        );
      },
      30_000,
      'a standby lag in every partition',
    );
    const table = await storeTable(page, 'stats-store');
    expect(table.columns).toEqual(['instance', ...PARTITIONS.map((p) => `partition ${p}`)]);
    expect(Object.keys(table.rows).sort()).toEqual([a.endpoint, b.endpoint].sort());
    for (const p of PARTITIONS) {
      const roles = Object.values(table.rows).map((cells) => cells[p].split('\n')[0]);
      expect(roles.sort()).toEqual(['active', 'standby']);
    }
    expect(table.owners).toEqual(PARTITIONS.map(() => '1 active'));

    // A key looked up on the page answers what GET /stats/:key answers. The key chosen lives on
    // the other instance, so the page reads its active copy remotely and its standby copy here.
    let user = USERS[0];
    for (const candidate of USERS) {
      const answer = await a.request(`/stats/${candidate}`);
      if (answer.headers.get('x-served-by') === b.endpoint) {
        user = candidate;
        break;
      }
    }
    await page.selectOption('#lookup-store', 'stats-store');
    await page.fill('#lookup-key', user);
    await page.click('#lookup-form button[type=submit]');
    await page.waitForSelector('#lookup-result tr[data-role="active"]');
    const placement = await page.innerText('#lookup-result [data-field="placement"]');
    const active = await page.innerText(
      '#lookup-result tr[data-role="active"] [data-field="value"]',
    );
    const standby = await page.innerText(
      '#lookup-result tr[data-role="standby"] [data-field="freshness"]',
    );
    const viaHttp = await b.request(`/stats/${user}`);
    expect(viaHttp.status).toBe(200);
    expect(JSON.parse(active)).toEqual(viaHttp.body);
    expect(viaHttp.body).toEqual(truth.get(user));
    const partition = Number(/partition (\d+)/.exec(placement)?.[1]);
    expect(placement).toBe(
      `key ${user} of stats-store: partition ${partition} · active on ${b.endpoint} · standbys on ${a.endpoint}`,
    );
    expect(table.rows[b.endpoint][partition]).toMatch(/^active/);
    expect(standby).toMatch(/^stale · lag \d+$/);
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, `cluster-page-${platform}.png`), fullPage: true });

    // One instance stops: the page shows it gone, and every partition active on the other.
    await b.stop();
    await waitFor(
      async () => {
        const shown = await cards(page);
        const { rows, owners } = await storeTable(page, 'stats-store');
        return (
          (shown[b.endpoint]?.includes('left the group') ?? false) &&
          (shown[a.endpoint]?.includes('state RUNNING') ?? false) &&
          (shown[a.endpoint]?.includes('tasks: 6 active, 0 standby, 0 warm-up') ?? false) &&
          PARTITIONS.every((p) => rows[a.endpoint]?.[p] === 'active') &&
          (rows[b.endpoint] ?? []).every((cell) => cell === '') &&
          owners.every((o) => o === '1 active')
        );
      },
      60_000,
      `the page showing ${b.endpoint} gone and its tasks on ${a.endpoint}`,
      {
        context: async () =>
          JSON.stringify({
            cards: await cards(page),
            table: await storeTable(page, 'stats-store'),
          }),
      },
    );
    await page.screenshot({
      path: join(shots, `cluster-page-${platform}-instance-stopped.png`),
      fullPage: true,
    });

    // Nothing went wrong in the page, and it asked nothing of anyone but its own instance (its
    // management port).
    expect(browser.errors).toEqual([]);
    const origin = `http://127.0.0.1:${managementPorts[0]}/`;
    expect(browser.requests.filter((url) => !url.startsWith(origin))).toEqual([]);
  }, 300_000);
});

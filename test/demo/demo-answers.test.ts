// How the demo reads answers: the truth comparison, HTTP answers as callers see them, the live view.
import { createServer, type Server } from 'node:http';
import { TruthRecorder, type TruthReport } from '../../apps/event-generator/src/main';
import { classifyStatsAnswer, queryStats, type StatsAnswer } from '../../tools/demo/http-probe';
import { LiveView } from '../../tools/demo/live-view';
import { formatTable, Palette, truncateVisible, visibleWidth } from '../../tools/demo/render';
import { answerMatches, checkAllUsers, compareWithTruth } from '../../tools/demo/truth-check';
import { freePort } from '@nest-streams/testing/kafka';

describe('truth comparison', () => {
  const truth = (): TruthReport => {
    const t = new TruthRecorder('labs.events', 1, 4);
    t.record('user-001', 1050, 0);
    t.record('user-001', 1, 0);
    for (let i = 0; i < 10; i++) t.record('user-002', 10, 0); // 10 x 0.10
    t.record('user-003', 99_999, 0);
    return t.report(); // user-004: no event
  };
  const ok = (count: number, sum: number, kind: StatsAnswer['kind'] = 'local'): StatsAnswer => ({
    kind,
    status: 200,
    stats: { count, sum },
    ms: 1,
  });
  const notFound: StatsAnswer = { kind: 'not-found', status: 404, ms: 1 };

  it('accepts exact answers, float sums that round to the same cents, and 404 for no events', () => {
    let floatSum = 0;
    for (let i = 0; i < 10; i++) floatSum += 0.1;
    const answers = new Map<string, StatsAnswer>([
      ['user-001', ok(2, 10.51)],
      ['user-002', ok(10, floatSum, 'forwarded')],
      ['user-003', ok(1, 999.99)],
      ['user-004', notFound],
    ]);
    expect(compareWithTruth(truth(), answers)).toEqual({
      users: 4,
      matched: 4,
      mismatches: [],
      ok: true,
    });
  });

  it('rejects a wrong count, a sum off by a cent, stale or 503 answers, and missing users', () => {
    const t = truth();
    expect(answerMatches(t.totals['user-001'], ok(3, 10.51))).toBe(false);
    expect(answerMatches(t.totals['user-001'], ok(2, 10.52))).toBe(false);
    expect(answerMatches(t.totals['user-001'], ok(2, 10.51, 'stale'))).toBe(false);
    expect(answerMatches(t.totals['user-001'], { kind: 'unavailable', ms: 1 })).toBe(false);
    expect(answerMatches(t.totals['user-001'], notFound)).toBe(false);
    expect(answerMatches(undefined, ok(1, 1))).toBe(false);
    expect(answerMatches(undefined, notFound)).toBe(true);

    const comparison = compareWithTruth(
      t,
      new Map<string, StatsAnswer>([
        ['user-001', ok(2, 10.5)],
        ['user-002', { kind: 'unavailable', status: 503, retryAfter: '1', ms: 1 }],
        ['user-004', ok(1, 5)],
      ]),
    );
    expect(comparison.ok).toBe(false);
    expect(comparison.matched).toBe(0);
    expect(comparison.mismatches).toEqual([
      { userId: 'user-001', expected: { count: 2, sum: 10.51 }, got: 'count 2, sum 10.5' },
      { userId: 'user-002', expected: { count: 10, sum: 1 }, got: '503 (Retry-After 1)' },
      { userId: 'user-003', expected: { count: 1, sum: 999.99 }, got: 'no answer' },
      { userId: 'user-004', expected: undefined, got: 'count 1, sum 5' },
    ]);
  });

  it('asks every user of the run, a few at a time', async () => {
    const t = truth();
    let inFlight = 0;
    let maxInFlight = 0;
    const asked: string[] = [];
    const { comparison } = await checkAllUsers(
      t,
      async (userId) => {
        asked.push(userId);
        maxInFlight = Math.max(maxInFlight, ++inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight--;
        const expected = t.totals[userId];
        return expected ? ok(expected.count, expected.sum) : notFound;
      },
      2,
    );
    expect(comparison.ok).toBe(true);
    expect(asked.sort()).toEqual(['user-001', 'user-002', 'user-003', 'user-004']);
    expect(maxInFlight).toBe(2);
  });
});

describe('HTTP answers as callers see them', () => {
  let server: Server;
  let endpoint: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const user = decodeURIComponent((req.url ?? '').replace('/stats/', ''));
      const json = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
        res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
        res.end(JSON.stringify(body));
      };
      switch (user) {
        case 'local':
          return json(200, { count: 3, sum: 1.5 }, { 'X-Served-By': endpoint });
        case 'forwarded':
          return json(200, { count: 4, sum: 2 }, { 'X-Served-By': '127.0.0.1:1' });
        case 'stale':
          return json(
            200,
            { count: 2, sum: 1 },
            {
              'X-Served-By': '127.0.0.1:1',
              'X-Stale': 'true',
              'X-Lag': '17',
            },
          );
        case 'rebalancing':
          return json(
            503,
            { statusCode: 503, message: 'rebalancing' },
            {
              'Retry-After': '1',
              'X-Served-By': endpoint,
            },
          );
        case 'unknown':
          return json(404, { message: "no stats for user 'unknown'" }, { 'X-Served-By': endpoint });
        case 'unmarked':
          return json(200, { count: 1, sum: 1 });
        case 'bad-body':
          return json(200, { total: 1 }, { 'X-Served-By': endpoint });
        case 'boom':
          return json(500, { message: 'Internal server error' }, { 'X-Served-By': endpoint });
        case 'slow':
          return void setTimeout(() => json(200, { count: 1, sum: 1 }), 2000);
        default:
          return json(400, { message: 'bad' });
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    endpoint = `127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('classifies local, forwarded, stale, 503, 404, unmarked and broken answers', async () => {
    const ask = (user: string): Promise<StatsAnswer> => queryStats(endpoint, user);
    expect(await ask('local')).toMatchObject({
      kind: 'local',
      status: 200,
      servedBy: endpoint,
      stats: { count: 3, sum: 1.5 },
    });
    expect(await ask('forwarded')).toMatchObject({ kind: 'forwarded', servedBy: '127.0.0.1:1' });
    expect(await ask('stale')).toMatchObject({
      kind: 'stale',
      lag: 17,
      stats: { count: 2, sum: 1 },
    });
    expect(await ask('rebalancing')).toMatchObject({
      kind: 'unavailable',
      status: 503,
      retryAfter: '1',
      detail: 'rebalancing',
    });
    expect(await ask('unknown')).toMatchObject({ kind: 'not-found', status: 404 });
    expect(await ask('unmarked')).toMatchObject({ kind: 'unmarked', stats: { count: 1, sum: 1 } });
    expect(await ask('bad-body')).toMatchObject({ kind: 'error', status: 200 });
    expect(await ask('boom')).toMatchObject({
      kind: 'error',
      detail: 'HTTP 500: Internal server error',
    });
    expect(await queryStats(endpoint, 'slow', 300)).toMatchObject({
      kind: 'error',
      detail: 'timeout',
    });
  });

  it('says down when nothing listens', async () => {
    const port = await freePort();
    expect(await queryStats(`127.0.0.1:${port}`, 'user-001')).toMatchObject({
      kind: 'down',
      detail: 'ECONNREFUSED',
    });
  });

  it('reads headers case-insensitively from a plain classification', () => {
    const headers = new Headers({ 'x-served-by': 'h:1', 'x-stale': 'TRUE' });
    expect(classifyStatsAnswer('h:1', 200, headers, { count: 1, sum: 2 }).kind).toBe('stale');
  });
});

describe('live view and rendering', () => {
  const p = new Palette(false);
  const local = (count: number): StatsAnswer => ({
    kind: 'local',
    status: 200,
    servedBy: 'h:1',
    stats: { count, sum: count },
    ms: 1,
  });

  it('notes the first answer of each kind per instance, and counts non-stale regressions', () => {
    const view = new LiveView(['user-001'], ['A', 'B'], new Map([['h:1', 'A']]), p);
    const firsts = view.recordRound([
      { userId: 'user-001', via: 'A', answer: local(5) },
      { userId: 'user-001', via: 'B', answer: { ...local(4), kind: 'forwarded' } },
    ]);
    expect(firsts.map((f) => `${f.via}:${f.answer.kind}`)).toEqual(['A:local', 'B:forwarded']);
    // Within a round answers race, so 4 after 5 above is no regression.
    expect(view.regressions).toBe(0);
    expect(view.recordRound([{ userId: 'user-001', via: 'A', answer: local(6) }])).toEqual([]);
    view.recordRound([
      { userId: 'user-001', via: 'A', answer: { ...local(2), kind: 'stale', lag: 4 } },
    ]);
    expect(view.regressions).toBe(0);
    expect(view.maxLag).toBe(4);
    view.recordRound([{ userId: 'user-001', via: 'A', answer: local(3) }]);
    expect(view.regressions).toBe(1);
    expect(view.tallyLine('A')).toBe('3 local · 1 stale (max lag 4)');
    view.resetTallies();
    expect(view.tallyLine('A')).toBe('no answer yet');
    const frame = view.frame({
      title: 'demo',
      phase: 'both',
      elapsedMs: 1500,
      generatorLine: 'g',
      instanceLines: ['A', 'B'],
      produced: () => 7,
      tallyLabel: 'since start',
    });
    expect(frame.join('\n')).toContain('user-001');
    expect(frame.join('\n')).toContain('1.5 s');
  });

  it('aligns columns whatever the styling, and truncates to the screen width', () => {
    const color = new Palette(true);
    const lines = formatTable(
      [
        ['a', color.green('1')],
        ['long', '22'],
      ],
      ['left', 'right'],
    );
    expect(lines.map(visibleWidth)).toEqual([8, 8]);
    const cut = truncateVisible(color.red('abcdef'), 3);
    expect(visibleWidth(cut)).toBe(3);
    expect(cut).toContain('abc');
    expect(cut.endsWith('\x1b[0m')).toBe(true);
    expect(truncateVisible('abc', 10)).toBe('abc');
  });
});

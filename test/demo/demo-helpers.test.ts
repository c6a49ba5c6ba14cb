import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { join } from 'node:path';
import {
  EventGenerator,
  TruthRecorder,
  type TruthReport,
} from '../../apps/event-generator/src/main';
import { instanceEnv } from '../../tools/demo/app-instance';
import { parseDemoOptions } from '../../tools/demo/demo-options';
import {
  choosePorts,
  cleanupKafka,
  ensureAppBuilt,
  portIsFree,
  prepareInputTopic,
} from '../../tools/demo/environment';
import { classifyStatsAnswer, queryStats, type StatsAnswer } from '../../tools/demo/http-probe';
import { LiveView } from '../../tools/demo/live-view';
import { processAlive, ProcessSupervisor } from '../../tools/demo/processes';
import { formatTable, Palette, truncateVisible, visibleWidth } from '../../tools/demo/render';
import { answerMatches, checkAllUsers, compareWithTruth } from '../../tools/demo/truth-check';
import { freePort } from '../../tools/kafka/free-port';
import { brokers, KafkaTestContext } from '../support/kafka-test-context';

const PARENT = join(__dirname, 'fixtures', 'supervised-parent.ts');
const NODE_FOREVER = ['-e', 'setInterval(() => {}, 1000)'];

async function eventually(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('demo process management', () => {
  it('stops a child with its grandchild, and SIGKILLs one that ignores SIGTERM', async () => {
    const supervisor = new ProcessSupervisor();
    let grandchild: number | undefined;
    const parent = supervisor.start({
      name: 'parent',
      command: process.execPath,
      args: [
        '-e',
        `const c = require('child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
         console.log('GRANDCHILD ' + c.pid); setInterval(() => {}, 1000);`,
      ],
      onLine: (line) => {
        const match = /^GRANDCHILD (\d+)$/.exec(line);
        if (match) grandchild = Number(match[1]);
      },
    });
    const stubborn = supervisor.start({
      name: 'stubborn',
      command: process.execPath,
      args: [
        '-e',
        "process.on('SIGTERM', () => {}); console.log('UP'); setInterval(() => {}, 1000);",
      ],
    });
    const plain = supervisor.start({
      name: 'plain',
      command: process.execPath,
      args: NODE_FOREVER,
    });
    await eventually(() => grandchild !== undefined && stubborn.tail().includes('UP'));
    expect(supervisor.running).toHaveLength(3);

    const started = Date.now();
    await supervisor.stopAll(800);
    // The stubborn child held out for the grace period, then got SIGKILL.
    expect(Date.now() - started).toBeGreaterThanOrEqual(700);
    expect(stubborn.exit).toEqual({ code: null, signal: 'SIGKILL' });
    expect(plain.exit).toEqual({ code: null, signal: 'SIGTERM' });
    expect(supervisor.running).toHaveLength(0);
    for (const pid of [parent.pid!, stubborn.pid!, plain.pid!, grandchild!]) {
      expect(processAlive(pid)).toBe(false);
    }
  });

  it('keeps the last lines of output and writes them to the log file', async () => {
    const supervisor = new ProcessSupervisor();
    const logFile = join(mkdtempSync(join(tmpdir(), 'demo-log-')), 'x.log');
    const child = supervisor.start({
      name: 'talker',
      command: process.execPath,
      args: ['-e', "console.log('one'); console.error('two'); process.exit(4)"],
      logFile,
    });
    expect(await child.exited).toEqual({ code: 4, signal: null });
    await eventually(() => child.tail().includes('two'));
    expect(child.tail().split('\n').sort()).toEqual(['one', 'two']);
    await eventually(() => readFileSync(logFile, 'utf8').includes('two'));
  });

  const runParent = (
    grace: number,
  ): Promise<{
    child: ReturnType<typeof spawn>;
    pids: number[];
    output: () => string;
    exit: Promise<number | null>;
  }> =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', PARENT, '--grace', String(grace)], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      const exit = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const match = /PIDS (\[.*\])/.exec(out);
        if (match) {
          resolve({
            child,
            pids: [child.pid!, ...(JSON.parse(match[1]) as number[])],
            output: () => out,
            exit,
          });
        }
      });
      void exit.then((code) => reject(new Error(`parent exited early (${code}): ${out}`)));
    });

  it('on Ctrl-C stops every child and grandchild, then exits 130', async () => {
    const run = await runParent(1000);
    run.child.kill('SIGINT');
    // npm run forwards the terminal's SIGINT too: a second one at once is the same Ctrl-C.
    setTimeout(() => run.child.kill('SIGINT'), 10);
    expect(await run.exit).toBe(130);
    expect(run.output()).toContain('GRACEFUL');
    expect(run.output()).not.toContain('FORCED');
    for (const pid of run.pids) expect(processAlive(pid)).toBe(false);
  });

  it('on a second Ctrl-C kills everything at once', async () => {
    const run = await runParent(60_000);
    run.child.kill('SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const forcedAt = Date.now();
    run.child.kill('SIGINT');
    expect(await run.exit).toBe(130);
    expect(Date.now() - forcedAt).toBeLessThan(5000);
    expect(run.output()).toContain('FORCED');
    await eventually(() => run.pids.every((pid) => !processAlive(pid)), 5000);
  });
});

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

describe('demo options', () => {
  it('runs interactively for 30 s by default, unattended with --duration', () => {
    expect(parseDemoOptions([])).toMatchObject({
      durationS: 30,
      unattended: false,
      users: 20,
      rate: 100,
      seed: 42,
      malformed: 10,
      show: 5,
      topic: 'labs.events',
      partitions: 6,
      keep: false,
    });
    expect(parseDemoOptions(['--duration', '45', '--users', '50', '--keep'])).toMatchObject({
      durationS: 45,
      unattended: true,
      users: 50,
      keep: true,
    });
  });

  it.each([[['--duration', '0']], [['--users', '1.5']], [['--what']], [['extra']]])(
    'rejects %j',
    (argv) => {
      expect(() => parseDemoOptions(argv)).toThrow();
    },
  );
});

describe('instance environment', () => {
  it('sets the contract variables for one instance', () => {
    const env = instanceEnv(
      { brokers: 'b:1', applicationId: 'app', inputTopic: 'in', standbyReplicas: 1 },
      { label: 'A', port: 8080, queryPort: 9999, stateDir: '/s/a', logFile: '/s/a.log' },
      { PATH: '/bin' },
    );
    expect(env).toEqual({
      PATH: '/bin',
      KAFKA_BROKERS: 'b:1',
      PORT: '8080',
      APPLICATION_SERVER: '127.0.0.1:8080',
      APPLICATION_ID: 'app',
      STATE_DIR: '/s/a',
      INPUT_TOPIC: 'in',
      NUM_STANDBY_REPLICAS: '1',
      QUERY_PORT: '9999',
      COMMIT_INTERVAL_MS: '1000',
    });
    expect(
      instanceEnv(
        { brokers: 'b', applicationId: 'a', inputTopic: 'i', standbyReplicas: 1 },
        { label: 'A', port: 1, queryPort: 2, stateDir: 's', logFile: 'l' },
        { COMMIT_INTERVAL_MS: '5000' },
      ).COMMIT_INTERVAL_MS,
    ).toBe('5000');
  });

  it('uses preferred ports when free, others when taken', async () => {
    const busy = createTcpServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const taken = (busy.address() as { port: number }).port;
    const free = await freePort();
    expect(await portIsFree(taken)).toBe(false);
    const ports = await choosePorts(3, [free, taken], [12345]);
    expect(ports[0]).toBe(free);
    expect(ports[1]).not.toBe(taken);
    expect(new Set(ports).size).toBe(3);
    expect(ports).not.toContain(12345);
    await new Promise<void>((resolve) => busy.close(() => resolve()));
  });
});

describe('build step', () => {
  /** A throwaway package whose `npm run build` runs `script`. */
  const project = (script: string): string => {
    const dir = mkdtempSync(join(tmpdir(), 'demo-build-'));
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'x', version: '1.0.0', private: true, scripts: { build: script } }),
    );
    return dir;
  };
  const quiet = (): void => undefined;

  it('runs npm run build when the application is missing, and not when it is there', async () => {
    const dir = project(
      `node -e "require('fs').mkdirSync('out',{recursive:true});require('fs').appendFileSync('out/main.js','built\\n')"`,
    );
    const entry = join(dir, 'out', 'main.js');
    await ensureAppBuilt(entry, dir, quiet);
    await ensureAppBuilt(entry, dir, quiet);
    expect(readFileSync(entry, 'utf8')).toBe('built\n');
  }, 60_000);

  it('says what went wrong when the build fails or leaves no application', async () => {
    const failing = project('node -e "process.exit(2)"');
    await expect(ensureAppBuilt(join(failing, 'main.js'), failing, quiet)).rejects.toThrow(
      'npm run build failed (exit code 2)',
    );
    const empty = project('node -e "0"');
    await expect(ensureAppBuilt(join(empty, 'main.js'), empty, quiet)).rejects.toThrow(
      /did not produce .*main\.js: is apps\/order-stats in this checkout\?/,
    );
  }, 60_000);
});

describe('input topic of a demo run (against the broker)', () => {
  const ctx = new KafkaTestContext();
  afterAll(() => ctx.cleanup());
  const lines: string[] = [];
  const log = (line: string): void => void lines.push(line);

  it('creates the topic, reuses it while empty, and takes a fresh one otherwise', async () => {
    const admin = await ctx.admin();
    const wanted = `${ctx.applicationId}-in`;
    expect(await prepareInputTopic(admin, wanted, 6, 's1', log)).toEqual({
      topic: wanted,
      partitions: 6,
      created: true,
    });
    expect(await prepareInputTopic(admin, wanted, 6, 's2', log)).toEqual({
      topic: wanted,
      partitions: 6,
      created: false,
    });
    // Another partition count: a fresh topic.
    expect(await prepareInputTopic(admin, wanted, 3, 's3', log)).toEqual({
      topic: `${wanted}.demo-s3`,
      partitions: 3,
      created: true,
    });
    // Records from an earlier run: a fresh topic, so that this run's totals are its own.
    await new EventGenerator({
      brokers: brokers(),
      topic: wanted,
      users: 2,
      seed: 1,
      events: 5,
    }).run();
    expect(await prepareInputTopic(admin, wanted, 6, 's4', log)).toEqual({
      topic: `${wanted}.demo-s4`,
      partitions: 6,
      created: true,
    });
    expect(lines.join('\n')).toContain('already holds 5 records');
    expect(lines.join('\n')).toContain('has 6 partitions, not 3');
  });

  it('cleans up what a run created: its input topic, internal topics and group', async () => {
    const admin = await ctx.admin();
    const applicationId = `${ctx.applicationId}-run`;
    const input = `${ctx.applicationId}-input-of-run`;
    const other = ctx.topicName('keep');
    await ctx.createTopic(input, 1);
    await ctx.createTopic(`${applicationId}-stats-store-changelog`, 1);
    await ctx.createTopic(other, 1);
    await cleanupKafka(admin, { applicationId, createdTopic: input }, log);
    const left = await admin.listTopics();
    expect(left).not.toContain(input);
    expect(left).not.toContain(`${applicationId}-stats-store-changelog`);
    expect(left).toContain(other);
  });
});

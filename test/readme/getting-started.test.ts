/**
 * The README's Getting started, as a package user runs it: the four packages packed, then, in an
 * empty folder, every block of the section in order (getting-started-script.ts): the install
 * line (the tarballs for the unpublished packages, everything else from the registry, the
 * RocksDB addon compiled), the files, the build command, the development broker of
 * `@nest-streams/testing` (`nest-streams-kafka`: Java and Maven), the topic, the run line of two
 * instances (on free ports), the wait, the README's order. Then the checks: both instances
 * ready and RUNNING, every user exact through either one with `X-Served-By` naming the same
 * owner, the cluster page and its data listing both, and neither log holding a warning or an
 * error. A README edit that breaks the path fails here, naming the README line.
 */
// kafkajs with the engine's fixes: importing @nest-streams/streams installs them first.
import '@nest-streams/streams';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { freePort, portIsFree } from '@nest-streams/testing/kafka';
import { packPackages, run, step, type Tarballs } from '../consumer/consumer-project';
import { nestLogLines, warningsAndErrors } from '../support/nest-log';
import { waitFor } from '../support/wait-for';
import { gettingStartedScript, type GettingStartedScript } from './getting-started-script';

/** The README's ports; each instance also listens on its port + 10000 (queries). */
const README_PORTS = [8080, 8081] as const;
/** Orders of this test's own, besides the README's, so that both instances own some users. */
const ORDERS = Array.from({ length: 60 }, (_, i) => ({
  userId: `user-${String(i % 12).padStart(2, '0')}`,
  amount: (i % 5) + 0.5,
}));

/** SIGTERM to a process group, SIGKILL after 30 s; resolves once none of it is left. */
async function stopGroup(pgid: number): Promise<void> {
  const signal = (name: NodeJS.Signals | 0): boolean => {
    try {
      process.kill(-pgid, name);
      return true;
    } catch {
      return false;
    }
  };
  if (!signal('SIGTERM')) return;
  const deadline = Date.now() + 30_000;
  while (signal(0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  signal('SIGKILL');
}

/** A free port whose port + 10000 is free too. */
async function instancePort(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (await portIsFree(port + 10_000)) return port;
  }
}

/**
 * This process's environment for the user's shell: no `npm_*` of an enclosing `npm test`, no
 * broker of the suite (the README starts its own), npm quiet and using its cache first.
 */
function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (name.toLowerCase().startsWith('npm_')) continue;
    if (name === 'KAFKA_BROKERS' || name === 'NEST_STREAMS_KAFKA_HOME') continue;
    env[name] = value;
  }
  return {
    ...env,
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    npm_config_prefer_offline: 'true',
  };
}

describe("the README's Getting started, run as written", () => {
  const root = mkdtempSync(join(tmpdir(), 'nest-streams-readme-'));
  const seconds: Record<string, number> = {};
  let tarballs: Tarballs;
  let shell: ChildProcess | undefined;
  let appDir: string | undefined;

  const timed = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const started = Date.now();
    try {
      return await step(name, fn);
    } finally {
      seconds[name] = (Date.now() - started) / 1000;
    }
  };

  beforeAll(async () => {
    tarballs = await timed('npm pack the four packages', () => packPackages(root));
  }, 300_000);

  afterAll(async () => {
    // The instances the run line started share the shell's process group.
    if (shell?.pid !== undefined) await stopGroup(shell.pid);
    if (appDir && existsSync(join(appDir, '.kafka'))) {
      await run('npx', ['nest-streams-kafka', 'stop'], appDir, 60_000).catch(() => undefined);
    }
    rmSync(root, { recursive: true, force: true });
    process.stdout.write(
      `[readme] ${Object.entries(seconds)
        .map(([name, s]) => `${name}: ${s.toFixed(1)} s`)
        .join(', ')}\n`,
    );
  }, 120_000);

  it('goes from an empty folder to two instances answering', async () => {
    const ports = [await instancePort(), await instancePort()];
    const readme: GettingStartedScript = gettingStartedScript(
      {
        rocksdb: tarballs.rocksdb,
        streams: tarballs.streams,
        nestjs: tarballs.nestjs,
        testing: tarballs.testing,
      },
      { [README_PORTS[0]]: ports[0], [README_PORTS[1]]: ports[1] },
    );
    writeFileSync(join(root, 'getting-started.sh'), readme.script);

    // Every block, in one shell, as a user types them; the instances it starts outlive it.
    const output = await timed('the README blocks (install, build, broker, run)', () =>
      runShell(join(root, 'getting-started.sh'), root),
    );
    // What each README block took (the `::step` marks' times).
    const marks = [...output.matchAll(/^::(?:step (README\.md:\d+)|cwd \S+) ([\d.]+)$/gm)];
    for (const [i, mark] of marks.entries()) {
      if (mark[1] && marks[i + 1]) {
        seconds[mark[1]] = Number(marks[i + 1][2]) - Number(mark[2]);
      }
    }
    appDir = /^::cwd (\S+)/m.exec(output)?.[1];
    expect(appDir).toBe(join(root, 'order-stats'));
    const dir = appDir!;
    const addon = join(dir, 'node_modules', '@nest-streams', 'rocksdb', 'build', 'Release');
    expect(existsSync(join(addon, 'nest_streams_rocksdb.node'))).toBe(true);

    const status = await run('npx', ['nest-streams-kafka', 'status'], dir, 60_000);
    const brokers = /KAFKA_BROKERS=(\S+)/.exec(status)?.[1];
    expect(brokers).toMatch(/^127\.0\.0\.1:\d+$/);

    const endpoints = ports.map((port) => `127.0.0.1:${port}`);
    // The run line's logs, `<port>.log`.
    const logs = () =>
      ports.map((port) => {
        const file = join(dir, `${port}.log`);
        return existsSync(file) ? readFileSync(file, 'utf8') : '';
      });
    const context = () => `${output.slice(-3000)}\n${logs().join('\n---\n').slice(-6000)}`;
    const get = (endpoint: string, path: string) =>
      fetch(`http://${endpoint}${path}`, { signal: AbortSignal.timeout(10_000) });

    await timed('both instances ready and RUNNING', () =>
      waitFor(
        async () => {
          for (const endpoint of endpoints) {
            const answer = await get(endpoint, '/health/ready');
            const body = (await answer.json()) as { details: { streams: { code: string } } };
            if (answer.status !== 200 || body.details.streams.code !== 'RUNNING') return false;
          }
          return true;
        },
        120_000,
        'both instances ready and RUNNING',
        { context },
      ),
    );

    const truth = new Map<string, { count: number; sum: number }>();
    const add = (userId: string, amount: number) => {
      const t = truth.get(userId) ?? { count: 0, sum: 0 };
      truth.set(userId, { count: t.count + 1, sum: t.sum + amount });
    };
    expect(readme.produced.length).toBeGreaterThan(0);
    for (const record of readme.produced) {
      expect(record.topic).toBe('orders');
      add(record.key, (JSON.parse(record.value) as { amount: number }).amount);
    }
    const producer = new Kafka({ brokers: [brokers!], logLevel: logLevel.NOTHING }).producer();
    await producer.connect();
    await producer.send({
      topic: 'orders',
      messages: ORDERS.map((order) => ({ key: order.userId, value: JSON.stringify(order) })),
    });
    await producer.disconnect();
    for (const order of ORDERS) add(order.userId, order.amount);

    // Every user exact through either instance, served by one owner both agree on.
    const owners = new Map<string, string>();
    await timed('every user exact through both instances', () =>
      waitFor(
        async () => {
          for (const [user, stats] of truth) {
            for (const endpoint of endpoints) {
              const answer = await get(endpoint, `/stats/${user}`);
              const body = answer.status === 200 ? await answer.json() : undefined;
              if (JSON.stringify(body) !== JSON.stringify(stats)) return false;
              const servedBy = answer.headers.get('x-served-by') ?? '';
              if ((owners.get(user) ?? servedBy) !== servedBy) return false;
              owners.set(user, servedBy);
            }
          }
          return true;
        },
        90_000,
        'every user exact through both instances',
        { context },
      ),
    );
    expect(new Set(owners.values())).toEqual(new Set(endpoints));
    const unknown = await get(endpoints[0], '/stats/nobody');
    expect(unknown.status).toBe(404);

    // The cluster page and its data, from either instance.
    for (const endpoint of endpoints) {
      const page = await get(endpoint, '/streams/ui');
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await page.text()).toContain('<h1>Kafka Streams cluster');
      const cluster = (await (await get(endpoint, '/streams/ui/api/cluster')).json()) as {
        instances: { host: string; status: string }[];
      };
      expect(
        cluster.instances
          .map(({ host, status }) => ({ host, status }))
          .sort((a, b) => a.host.localeCompare(b.host)),
      ).toEqual(
        endpoints
          .map((host) => ({ host, status: 'up' }))
          .sort((a, b) => a.host.localeCompare(b.host)),
      );
    }

    // A quiet start: no warning or error in either log; readiness logged once per change.
    for (const [i, log] of logs().entries()) {
      expect({ instance: endpoints[i], lines: warningsAndErrors(log) }).toEqual({
        instance: endpoints[i],
        lines: [],
      });
      expect(nestLogLines(log).filter((l) => l.context === 'StreamsHealth')).not.toHaveLength(0);
    }
  }, 600_000);

  /** Runs `script` with bash in `cwd`, its own process group; resolves with its output. */
  function runShell(script: string, cwd: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = spawn('bash', [script], {
        cwd,
        env: userEnv(),
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      shell = child;
      let out = '';
      child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), 480_000);
      child.on('exit', (code) => {
        clearTimeout(timer);
        if (code === 0) return resolve(out);
        const where = [...out.matchAll(/::step (README\.md:\d+)/g)].at(-1)?.[1] ?? 'the start';
        reject(
          Object.assign(new Error(`the README's block at ${where} failed (exit ${code})`), {
            output: out,
          }),
        );
      });
    });
  }
});

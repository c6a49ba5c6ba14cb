import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OrderStatsInstance } from '../../tools/instances/order-stats-instance';
import { waitFor } from '../cluster/cluster-harness';
import { waitWhileAlive } from './support/disk-instance-wait';
import { brokers, KafkaTestContext } from '../support/kafka-test-context';
import {
  changelogRecords,
  ORDER_STATS_STORES,
  restoredRecords,
  total,
} from './support/disk-state-probe';
import { recordFigures } from './support/reliability-report';
import { sized } from './support/reliability-size';
import { readyAndRunning } from '../support/health';

interface Stats {
  count: number;
  sum: number;
}

const EVENTS = sized({ reduced: 3_000, full: 100_000 });
const USERS = sized({ reduced: 600, full: 20_000 });
const PARTITIONS = 6;
/** The tasks whose `.checkpoint` scenario (b) corrupts; the others keep a valid one. */
const CORRUPTED_TASKS = [1, 4];

/**
 * Disk faults (issue #9) against one order-stats instance (at-least-once, whose restores start
 * from the checkpoint) on the shared broker: (c) a second process on the same state directory
 * fails with an error naming the holder while the first keeps serving exact values; (a) the
 * state directory deleted while stopped is restored in full from the changelogs; (b) corrupted
 * `.checkpoint` files are reported and only their tasks restored in full. Values stay exact.
 */
describe('reliability: disk faults', () => {
  const ctx = new KafkaTestContext();
  const stateDir = mkdtempSync(join(tmpdir(), 'disk-faults-state-'));
  const appDir = join(stateDir, ctx.applicationId);
  const truthCents = new Map<string, { count: number; cents: number }>();
  const spawned: OrderStatsInstance[] = [];
  const figures: Record<string, unknown> = {};
  const wallStart = Date.now();
  let produced = 0;
  let input = '';
  let env: Record<string, string> = {};
  let instance: OrderStatsInstance | undefined;

  afterAll(async () => {
    await Promise.all(spawned.map((i) => i.stop('SIGKILL')));
    await ctx.cleanup();
    rmSync(stateDir, { recursive: true, force: true });
  });

  const produce = async (count: number) => {
    const producer = ctx.kafka.producer();
    await producer.connect();
    const timestamp = String(Date.now() - 60_000);
    for (let first = 0; first < count; first += 1000) {
      const messages = [];
      for (let i = first; i < Math.min(count, first + 1000); i++) {
        const n = produced + i;
        const userId = `user-${String((n * 7919) % USERS).padStart(5, '0')}`;
        const cents = 25 * ((n % 17) + 1);
        const t = truthCents.get(userId) ?? { count: 0, cents: 0 };
        truthCents.set(userId, { count: t.count + 1, cents: t.cents + cents });
        messages.push({
          key: userId,
          value: JSON.stringify({ userId, amount: cents / 100 }),
          timestamp,
        });
      }
      await producer.send({ topic: input, messages });
    }
    await producer.disconnect();
    produced += count;
  };
  const truth = (user: string): Stats => {
    const t = truthCents.get(user)!;
    return { count: t.count, sum: t.cents / 100 };
  };
  const start = async (ports: { port?: number; queryPort?: number } = {}) => {
    const started = await OrderStatsInstance.start({ ...env, STATE_DIR: stateDir }, ports);
    spawned.push(started);
    return started;
  };
  const waitReady = (target: OrderStatsInstance, what: string) =>
    waitWhileAlive(
      [target],
      async () => readyAndRunning(await target.request('/health/ready')),
      180_000,
      what,
    );
  /** Every user's stats in one answer (`/stats/range` over the whole key space), sorted. */
  const allStats = async (target: OrderStatsInstance) => {
    const r = await target.request('/stats/range?from=user-00000&to=user-99999');
    return { status: r.status, body: r.body as ({ userId: string } & Stats)[] };
  };
  const expected = () =>
    [...truthCents.keys()].sort().map((userId) => ({ userId, ...truth(userId) }));
  /**
   * Waits until every user's stats are exact. While they are not, the condition throws what it
   * saw (status, users, counted events, the first wrong users) and a timeout adds the instance's
   * input lag, so it says whether events were missing, counted twice or not queryable.
   */
  const waitExact = (target: OrderStatsInstance, what: string) =>
    waitWhileAlive(
      [target],
      async () => {
        const { status, body } = await allStats(target);
        const want = expected();
        if (
          status === 200 &&
          body.length === want.length &&
          body.every((s, i) => s.userId === want[i].userId && s.count === want[i].count)
        ) {
          return true;
        }
        throw new Error(describeMismatch(status, body, want));
      },
      180_000,
      what,
      () => inputLag(target),
    );
  const describeMismatch = (
    status: number,
    body: unknown,
    want: ({ userId: string } & Stats)[],
  ) => {
    if (status !== 200 || !Array.isArray(body)) {
      return `range answered ${status}: ${JSON.stringify(body).slice(0, 300)}`;
    }
    const got = new Map((body as ({ userId: string } & Stats)[]).map((s) => [s.userId, s]));
    const wrong = want
      .filter((w) => got.get(w.userId)?.count !== w.count)
      .slice(0, 3)
      .map((w) => `${w.userId} ${got.get(w.userId)?.count ?? 'missing'} (want ${w.count})`);
    const counted = [...got.values()].reduce((sum, s) => sum + s.count, 0);
    return `range has ${got.size}/${want.length} users, ${counted}/${produced} events counted; wrong: ${wrong.join(', ')}`;
  };
  /** The instance's input lag per partition (its Prometheus lines), for a timeout's message. */
  const inputLag = async (target: OrderStatsInstance) => {
    const metrics = await target.request('/metrics').catch(() => undefined);
    const lag = String(metrics?.body ?? '')
      .split('\n')
      .filter((line) => line.includes('input_lag_records{'))
      .join('; ');
    return `input lag: ${lag || 'none reported'}`;
  };
  const expectExact = async (target: OrderStatsInstance) => {
    const { status, body } = await allStats(target);
    expect(status).toBe(200);
    expect(body).toEqual(expected());
    // One key also through the single-key endpoint.
    const [first] = expected();
    expect((await target.request(`/stats/${first.userId}`)).body).toEqual({
      count: first.count,
      sum: first.sum,
    });
  };
  /**
   * The instance every scenario starts from, whatever ran before it (each scenario runs alone
   * too, e.g. with `-t '(b)'`): one RUNNING instance on the state directory, every event exact.
   */
  const runningInstance = async (): Promise<OrderStatsInstance> => {
    const alive = instance?.process.exitCode === null && instance.process.signalCode === null;
    if (!alive || instance === undefined) {
      instance = await start(
        instance ? { port: instance.port, queryPort: instance.queryPort } : {},
      );
      await waitReady(instance, 'an instance ready');
    }
    await waitExact(instance, 'every event processed');
    await expectExact(instance);
    return instance;
  };
  /** Stops the instance cleanly (its checkpoints written) and returns its ports. */
  const stopCleanly = async (stopped: OrderStatsInstance) => {
    await stopped.stop('SIGTERM');
    // A clean shutdown: Nest's shutdown hooks ran and re-raised the signal (or exit 0).
    expect(stopped.process.exitCode === 0 || stopped.process.signalCode === 'SIGTERM').toBe(true);
    return { port: stopped.port, queryPort: stopped.queryPort };
  };
  const changelogs = async () => {
    const admin = await ctx.admin();
    const result = new Map<string, Map<number, number>>();
    for (const store of ORDER_STATS_STORES) {
      result.set(store, await changelogRecords(admin, ctx.applicationId, store));
    }
    return result;
  };

  beforeAll(async () => {
    input = await ctx.createTopic(ctx.topicName('disk-faults'), PARTITIONS);
    env = {
      KAFKA_BROKERS: brokers().join(','),
      APPLICATION_ID: ctx.applicationId,
      INPUT_TOPIC: input,
      PROCESSING_GUARANTEE: 'at_least_once',
      COMMIT_INTERVAL_MS: '200',
    };
    await produce(EVENTS);
  });

  it('(c) refuses a second process on a locked state directory, naming the holder', async () => {
    const holder = await runningInstance();
    const lockHolder = JSON.parse(readFileSync(join(appDir, '.lock'), 'utf8')) as { pid: number };
    expect(lockHolder.pid).toBe(holder.process.pid);
    // A start waits task.timeout.ms for the holder to stop, then exits: 5 s here.
    const second = await OrderStatsInstance.start({
      ...env,
      STATE_DIR: stateDir,
      TASK_TIMEOUT_MS: '5000',
    });
    spawned.push(second);
    await waitFor(() => second.process.exitCode !== null, 120_000, 'the second instance exits');
    expect(second.process.exitCode).toBe(1);
    const message = `state directory ${appDir} is locked by process ${holder.process.pid}; stop that process or use another state.dir`;
    expect(second.output).toContain(message);
    expect(second.output).toContain('StateDirectoryLockedError');

    // The holder is untouched: still RUNNING, ready, processing new events, exact.
    await produce(500);
    await waitExact(holder, 'new events processed by the holder');
    await expectExact(holder);
    expect((await holder.request('/health/ready')).status).toBe(200);
    expect(((await holder.request('/streams/metadata')).body as { state: string }).state).toBe(
      'RUNNING',
    );
    expect(holder.process.exitCode).toBeNull();
    figures.lockedError = message.replace(appDir, '<stateDir>/<applicationId>');
  });

  it('(a) restores every store in full after the state directory was deleted', async () => {
    const ports = await stopCleanly(await runningInstance());
    rmSync(stateDir, { recursive: true, force: true });
    const before = await changelogs();
    const restartAt = Date.now();
    instance = await start(ports);
    await waitReady(instance, 'ready after the full restore');
    await waitExact(instance, 'exact after the full restore');
    const restoreSeconds = (Date.now() - restartAt) / 1000;
    await expectExact(instance);
    const restored = await restoredRecords(instance);
    for (const store of ORDER_STATS_STORES) {
      expect(total(before.get(store)!)).toBeGreaterThan(0);
      expect(restored.get(store)).toBe(total(before.get(store)!));
    }
    figures.deletedStateDir = {
      restoredRecords: Object.fromEntries(restored),
      restartToExactSeconds: restoreSeconds,
    };
  });

  it('(b) restores in full, with a warning, only the tasks whose .checkpoint is corrupt', async () => {
    const ports = await stopCleanly(await runningInstance());
    const files = CORRUPTED_TASKS.map((p) => join(appDir, `0_${p}`, '.checkpoint'));
    for (let p = 0; p < PARTITIONS; p++) {
      expect(existsSync(join(appDir, `0_${p}`, '.checkpoint'))).toBe(true);
    }
    for (const file of files) writeFileSync(file, '0\nthree\nnot a checkpoint\n');
    const before = await changelogs();
    instance = await start(ports);
    await waitReady(instance, 'ready after the checkpoint restore');
    await waitExact(instance, 'exact after the checkpoint restore');
    await expectExact(instance);

    const warnings = instance.output
      .split('\n')
      .filter((line) => line.includes('restoring every store from the beginning'));
    expect(warnings).toHaveLength(CORRUPTED_TASKS.length);
    CORRUPTED_TASKS.forEach((p, i) => {
      expect(warnings).toContainEqual(
        expect.stringContaining(`task 0_${p}: checkpoint file ${files[i]} is corrupt: `),
      );
    });
    const restored = await restoredRecords(instance);
    for (const store of ORDER_STATS_STORES) {
      expect(total(before.get(store)!, CORRUPTED_TASKS)).toBeGreaterThan(0);
      expect(restored.get(store)).toBe(total(before.get(store)!, CORRUPTED_TASKS));
    }
    figures.corruptCheckpoint = {
      corruptedTasks: CORRUPTED_TASKS.map((p) => `0_${p}`),
      warning: warnings[0].replace(/\/\S+\/\.checkpoint/, '<taskDir>/.checkpoint'),
      restoredRecords: Object.fromEntries(restored),
      changelogRecordsAllTasks: Object.fromEntries(
        ORDER_STATS_STORES.map((s) => [s, total(before.get(s)!)]),
      ),
    };
    recordFigures('disk-faults', {
      events: produced,
      users: USERS,
      partitions: PARTITIONS,
      ...figures,
      wallSeconds: (Date.now() - wallStart) / 1000,
    });
  });
});

/**
 * Static membership (KIP-345, `groupInstanceId`) on @platformatic/kafka, with separate
 * processes: an instance restarted with its id and state dir within the session timeout takes
 * its tasks back without a rebalance (the other instance never leaves RUNNING, the broker keeps
 * the member while it is away), where the same restart of dynamic members rebalances twice; and
 * two processes with the same id: the broker fences the older, which stops (ERROR).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brokers, KafkaTestContext } from '../support/kafka-test-context';
import type { OrderStats } from '../runtime/stats-topology';
import { streamsGroupProtocol } from '../support/streams-client';
import { ClusterInstance, type InstanceState, waitFor } from './cluster-harness';

const USERS = 40;
const PARTITIONS = 4;
const SESSION_TIMEOUT_MS = 10_000;
/** Every instance here runs on @platformatic/kafka: kafkajs has no static membership. */
const CLIENT = { NEST_STREAMS_CLIENT: '@platformatic/kafka' };
/**
 * Under the streams protocol (`npm run test:integration:streams-protocol`) only the restart
 * case runs: its group is described with StreamsGroupDescribe, not DescribeGroups; a dynamic
 * member's leave and a second process with a held id behave as KIP-1071 says (the newcomer is
 * refused with UNRELEASED_INSTANCE_ID rather than the older fenced), which the streams member's
 * broker spec covers.
 */
const STREAMS = streamsGroupProtocol() === 'streams';
const classicOnly = STREAMS ? it.skip : it;

type Event = { userId: string; amount: number };
function events(count: number, offset = 0): Event[] {
  return Array.from({ length: count }, (_, i) => ({
    userId: `user-${(i + offset) % USERS}`,
    amount: ((i + offset) % 7) + 1,
  }));
}
function truthOf(list: Event[]): Record<string, OrderStats> {
  const truth: Record<string, OrderStats> = {};
  for (const e of list) {
    const t = (truth[e.userId] ??= { count: 0, sum: 0 });
    t.count++;
    t.sum += e.amount;
  }
  return truth;
}

/** What one restart of instance B showed. */
interface RestartFigures {
  /** A's state changes from B's SIGTERM until B is RUNNING again and everything is committed. */
  otherTransitions: string[];
  /** Group members the broker reported while B was away: after its exit, after its respawn. */
  membersWhileAway: number[];
  /** From B's SIGTERM to the restarted B's spawn. */
  awayMs: number;
  tasksBefore: { a: string[]; b: string[] };
  tasksAfter: { a: string[]; b: string[] };
  /** From B's SIGTERM until the restarted B was RUNNING. */
  backRunningMs: number;
  /** Records the restarted B restored from the changelogs. */
  restoredAfterRestart: number;
}

describe('static membership (KIP-345) on @platformatic/kafka', () => {
  const ctx = new KafkaTestContext();
  const dirs: string[] = [];
  const instances: ClusterInstance[] = [];
  const stateDir = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'static-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(async () => {
    await Promise.all(instances.splice(0).map((i) => i.kill('SIGTERM')));
  });
  afterAll(async () => {
    await ctx.cleanup();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  async function produce(topic: string, list: Event[]): Promise<void> {
    const producer = ctx.kafka.producer();
    await producer.connect();
    await producer.send({
      topic,
      messages: list.map((e) => ({ key: e.userId, value: JSON.stringify(e) })),
    });
    await producer.disconnect();
  }

  async function committed(topic: string, groupId: string): Promise<number> {
    const offsets = await (await ctx.admin()).fetchOffsets({ groupId, topics: [topic] });
    return offsets[0].partitions.reduce((n, p) => n + Math.max(0, Number(p.offset)), 0);
  }

  /** The group's members as the broker counts them (classic groups; -1 for a streams group). */
  async function members(groupId: string): Promise<number> {
    if (STREAMS) return -1;
    const { groups } = await (await ctx.admin()).describeGroups([groupId]);
    return groups[0].members.length;
  }

  async function start(env: Record<string, string>, port?: number): Promise<ClusterInstance> {
    const instance = await ClusterInstance.start({ ...CLIENT, ...env }, port);
    instances.push(instance);
    return instance;
  }

  /**
   * Waits until every instance is RUNNING and, when `balanced`, holds its share of the tasks:
   * under the streams protocol a member can be RUNNING with no task yet while the broker waits
   * for the other to revoke what it moves (the assignment arrives with a later heartbeat).
   */
  async function untilRunning(
    list: ClusterInstance[],
    what: string,
    balanced = false,
  ): Promise<InstanceState[]> {
    const share = PARTITIONS / list.length;
    await waitFor(
      async () =>
        (await Promise.all(list.map((i) => i.state()))).every(
          (s) => s.state === 'RUNNING' && (!balanced || s.active.length === share),
        ),
      90_000,
      what,
      { context: () => list.map((i) => i.output.slice(-3000)).join('\n---\n') },
    );
    return Promise.all(list.map((i) => i.state()));
  }

  /** Every instance's local values, merged: each key from the instance that holds it. */
  async function values(list: ClusterInstance[]): Promise<Record<string, OrderStats>> {
    const all = await Promise.all(
      list.map(async (i) => (await i.get<Record<string, OrderStats>>('/all')).body),
    );
    return Object.assign({}, ...all) as Record<string, OrderStats>;
  }

  /**
   * Two instances A and B; B is stopped with SIGTERM (a clean close) and started again on the
   * same port and state dir (with the same instance id when `staticIds`), while events keep
   * coming; returns what A and the broker showed meanwhile. Values are checked exactly.
   */
  async function restartB(label: string, staticIds: boolean): Promise<RestartFigures> {
    const appId = `${ctx.applicationId}-${label}`;
    const input = await ctx.createTopic(ctx.topicName(label), PARTITIONS);
    const env = {
      APPLICATION_ID: appId,
      INPUT_TOPIC: input,
      KAFKA_BROKERS: brokers().join(','),
      SESSION_TIMEOUT_MS: String(SESSION_TIMEOUT_MS),
    };
    const id = (name: string): Record<string, string> =>
      staticIds ? { GROUP_INSTANCE_ID: `${label}-${name}` } : {};
    const first = events(2000);
    await produce(input, first);
    const dirB = stateDir();
    const a = await start({ ...env, ...id('a'), STATE_DIR: stateDir() });
    const b = await start({ ...env, ...id('b'), STATE_DIR: dirB });
    await waitFor(async () => (await committed(input, appId)) === first.length, 90_000, 'first');
    const [sa, sb] = await untilRunning([a, b], 'A and B RUNNING with two tasks each', true);
    expect([sa.active.length, sb.active.length]).toEqual([2, 2]);
    const seenBefore = sa.transitions.length;

    const stoppedAt = Date.now();
    await b.kill('SIGTERM');
    const membersWhileAway = [await members(appId)];
    // Started at once, as a pod comes back: its JoinGroup must come within the session timeout.
    const b2 = await start({ ...env, ...id('b'), STATE_DIR: dirB }, b.port);
    const awayMs = Date.now() - stoppedAt;
    membersWhileAway.push(await members(appId));
    const second = events(1000, 2000);
    await produce(input, second);
    const total = first.length + second.length;
    await waitFor(async () => (await committed(input, appId)) === total, 90_000, 'second');
    const [ta, tb] = await untilRunning([a, b2], 'A and the restarted B RUNNING');
    // Values exact on both sides: what A kept processing and what B took back.
    expect(await values([a, b2])).toEqual(truthOf([...first, ...second]));
    return {
      otherTransitions: ta.transitions.slice(seenBefore).map((t) => t.state),
      membersWhileAway,
      awayMs,
      tasksBefore: { a: sa.active, b: sb.active },
      tasksAfter: { a: ta.active, b: tb.active },
      backRunningMs: tb.transitions.find((t) => t.state === 'RUNNING')!.at - stoppedAt,
      restoredAfterRestart: tb.restored,
    };
  }

  it('a restart within the session timeout causes no rebalance: same tasks, the other never leaves RUNNING', async () => {
    const figures = await restartB('static', true);
    process.stdout.write(`[static-membership] static ids: ${JSON.stringify(figures)}\n`);
    expect(figures.awayMs).toBeLessThan(SESSION_TIMEOUT_MS);
    // The broker kept B in the group while its process was gone: no rebalance started.
    expect(figures.membersWhileAway).toEqual(STREAMS ? [-1, -1] : [2, 2]);
    expect(figures.otherTransitions).toEqual([]);
    expect(figures.tasksAfter).toEqual(figures.tasksBefore);
    // A clean close checkpointed B's stores: nothing to restore from the changelogs.
    expect(figures.restoredAfterRestart).toBe(0);
  });

  classicOnly(
    'the same restart of dynamic members (no ids) rebalances: the other leaves RUNNING',
    async () => {
      const figures = await restartB('dynamic', false);
      process.stdout.write(`[static-membership] dynamic members: ${JSON.stringify(figures)}\n`);
      // B left the group on close: the broker rebalanced without it, then again when it came back.
      expect(figures.membersWhileAway.at(-1)).toBe(1);
      expect(figures.otherTransitions.filter((s) => s === 'REBALANCING').length).toBeGreaterThan(0);
      expect(figures.otherTransitions.at(-1)).toBe('RUNNING');
    },
  );

  classicOnly(
    'two processes with one id: the broker fences the older, which stops in ERROR; the newer holds the tasks',
    async () => {
      const label = 'fenced';
      const appId = `${ctx.applicationId}-${label}`;
      const input = await ctx.createTopic(ctx.topicName(label), PARTITIONS);
      const env = {
        APPLICATION_ID: appId,
        INPUT_TOPIC: input,
        KAFKA_BROKERS: brokers().join(','),
        SESSION_TIMEOUT_MS: String(SESSION_TIMEOUT_MS),
        GROUP_INSTANCE_ID: `${label}-same`,
      };
      const first = events(1000);
      await produce(input, first);
      const older = await start({ ...env, STATE_DIR: stateDir() });
      await waitFor(async () => (await committed(input, appId)) === first.length, 90_000, 'first');
      await untilRunning([older], 'the older RUNNING');
      const newer = await start({ ...env, STATE_DIR: stateDir() });
      await waitFor(
        async () => (await older.state()).state === 'ERROR',
        60_000,
        'the older process fenced',
        { context: () => older.output.slice(-3000) },
      );
      expect(older.output).toContain('FENCED_INSTANCE_ID');
      const second = events(500, 1000);
      await produce(input, second);
      const total = first.length + second.length;
      await waitFor(async () => (await committed(input, appId)) === total, 90_000, 'second');
      const [state] = await untilRunning([newer], 'the newer RUNNING');
      expect(state.active.sort()).toEqual(['0_0', '0_1', '0_2', '0_3']);
      expect(await values([newer])).toEqual(truthOf([...first, ...second]));
      // The newer process never rebalanced: it took the assignment the older held.
      expect(state.transitions.map((t) => t.state)).toEqual(['REBALANCING', 'RUNNING']);
      expect(await members(appId)).toBe(1);
    },
  );
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brokers, KafkaTestContext } from '../support/kafka-test-context';
import type { OrderStats } from '../runtime/stats-topology';
import { ClusterInstance, waitFor } from './cluster-harness';
import { streamsGroupProtocol } from '../support/streams-client';

interface Meta {
  activeHost: string;
  standbyHosts: string[];
  partition: number;
}

const USERS = 60;
function events(count: number, offset = 0) {
  return Array.from({ length: count }, (_, i) => ({
    userId: `user-${(i + offset) % USERS}`,
    amount: ((i + offset) % 9) + 1,
  }));
}
function truthOf(list: { userId: string; amount: number }[]): Record<string, OrderStats> {
  const truth: Record<string, OrderStats> = {};
  for (const e of list) {
    const t = (truth[e.userId] ??= { count: 0, sum: 0 });
    t.count++;
    t.sum += e.amount;
  }
  return truth;
}

describe('multi-instance: host metadata, standbys, interactive queries', () => {
  const ctx = new KafkaTestContext();
  const dirs: string[] = [];
  const instances: ClusterInstance[] = [];
  const stateDir = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'cluster-'));
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

  async function produce(topic: string, list: { userId: string; amount: number }[]): Promise<void> {
    const producer = ctx.kafka.producer();
    await producer.connect();
    for (let i = 0; i < list.length; i += 1000) {
      await producer.send({
        topic,
        messages: list.slice(i, i + 1000).map((e) => ({ key: e.userId, value: JSON.stringify(e) })),
      });
    }
    await producer.disconnect();
  }

  async function committed(topic: string, groupId: string): Promise<number> {
    const admin = await ctx.admin();
    const offsets = await admin.fetchOffsets({ groupId, topics: [topic] });
    return offsets[0].partitions.reduce((n, p) => n + Math.max(0, Number(p.offset)), 0);
  }

  it('three instances agree on every key owner, the owner holds it active, and its value is exact', async () => {
    const appId = `${ctx.applicationId}-three`;
    const input = await ctx.createTopic(ctx.topicName('three'), 6);
    const list = events(3000);
    await produce(input, list);
    const truth = truthOf(list);
    const env = {
      APPLICATION_ID: appId,
      INPUT_TOPIC: input,
      KAFKA_BROKERS: brokers().join(','),
      NUM_STANDBY_REPLICAS: '1',
    };
    for (let i = 0; i < 3; i++)
      instances.push(await ClusterInstance.start({ ...env, STATE_DIR: stateDir() }));
    await waitFor(
      async () => (await committed(input, appId)) === list.length,
      90_000,
      'all events committed',
    );
    // Every instance RUNNING with the whole assignment in place. Under the streams protocol a
    // member runs the part it has while the rest is still being released by others, and the
    // routing maps follow a heartbeat later: wait for them to agree too.
    const agree = async () => {
      for (const user of Object.keys(truth)) {
        const answers = await Promise.all(instances.map((i) => i.get<Meta>(`/meta/${user}`)));
        if (new Set(answers.map((a) => a.body.activeHost)).size !== 1) return false;
      }
      return true;
    };
    await waitFor(
      async () => {
        const all = await Promise.all(instances.map((i) => i.state()));
        return (
          all.every((s) => s.state === 'RUNNING') &&
          all.flatMap((s) => s.active).length === 6 &&
          all.flatMap((s) => s.standby).length === 6 &&
          (streamsGroupProtocol() !== 'streams' || (await agree()))
        );
      },
      90_000,
      'all RUNNING with every task and standby assigned',
    ).catch(async (error: unknown) => {
      const states = await Promise.all(
        instances.map((i) => i.state().catch((e: unknown) => String(e))),
      );
      throw new Error(
        `${String(error)}; states ${JSON.stringify(states)}; output ${instances.map((i) => i.output).join('\n---\n')}`,
      );
    });
    const states = await Promise.all(instances.map((i) => i.state()));
    expect(states.flatMap((s) => s.active).sort()).toEqual([
      '0_0',
      '0_1',
      '0_2',
      '0_3',
      '0_4',
      '0_5',
    ]);
    expect(states.map((s) => s.active.length)).toEqual([2, 2, 2]);
    // One standby per task, never on the active's instance.
    expect(states.flatMap((s) => s.standby).sort()).toEqual([
      '0_0',
      '0_1',
      '0_2',
      '0_3',
      '0_4',
      '0_5',
    ]);
    for (const s of states) for (const t of s.standby) expect(s.active).not.toContain(t);

    for (const user of Object.keys(truth)) {
      const answers = await Promise.all(instances.map((i) => i.get<Meta>(`/meta/${user}`)));
      const owners = new Set(answers.map((a) => a.body.activeHost));
      expect(owners.size).toBe(1);
      const meta = answers[0].body;
      expect(meta.partition).toBeGreaterThanOrEqual(0);
      const owner = instances.find((i) => i.endpoint === meta.activeHost)!;
      expect((await owner.state()).active).toContain(`0_${meta.partition}`);
      expect(meta.standbyHosts).toHaveLength(1);
      expect(meta.standbyHosts[0]).not.toBe(meta.activeHost);
      const value = await owner.get<OrderStats>(`/get/${user}`);
      expect(value).toEqual({ status: 200, body: truth[user] });
      // IQv2 on the owner: exactly one partition answers, with its position.
      const v2 = await owner.get<{
        partitionResults: {
          partition: number;
          success: boolean;
          result: unknown;
          failureReason?: string;
        }[];
      }>(`/query/${user}`);
      const answered = v2.body.partitionResults.filter((r) => r.success);
      expect(answered.map((r) => r.partition)).toContain(meta.partition);
      expect(answered.find((r) => r.partition === meta.partition)!.result).toEqual(truth[user]);
      // A non-owner has no active copy: a typed, retriable "migrated" answer.
      const other = instances.find((i) => i !== owner && i.endpoint !== meta.standbyHosts[0])!;
      const miss = await other.get<{ code: string }>(`/get/${user}`);
      if (miss.status !== 404) expect(miss.body.code).toBe('STORE_MIGRATED');
    }
  });

  it('read-your-writes: a query bounded by a just-written offset answers only once it reflects that write', async () => {
    const appId = `${ctx.applicationId}-ryw`;
    const input = await ctx.createTopic(ctx.topicName('ryw'), 1);
    await produce(input, events(100));
    const instance = await ClusterInstance.start({
      APPLICATION_ID: appId,
      INPUT_TOPIC: input,
      KAFKA_BROKERS: brokers().join(','),
      STATE_DIR: stateDir(),
    });
    instances.push(instance);
    await waitFor(async () => (await committed(input, appId)) === 100, 60_000, 'committed');
    const producer = ctx.kafka.producer();
    await producer.connect();
    const [meta] = await producer.send({
      topic: input,
      messages: [{ key: 'user-5', value: JSON.stringify({ userId: 'user-5', amount: 1000 }) }],
    });
    await producer.disconnect();
    const bound = encodeURIComponent(JSON.stringify({ [input]: { 0: Number(meta.baseOffset) } }));
    type V2 = {
      partitionResults: { success: boolean; result: OrderStats; failureReason?: string }[];
    };
    let answer: V2 | undefined;
    await waitFor(
      async () => {
        answer = (await instance.get<V2>(`/query/user-5?bound=${bound}`)).body;
        const r = answer.partitionResults[0];
        if (!r.success) expect(r.failureReason).toBe('NOT_UP_TO_BOUND');
        return r.success;
      },
      30_000,
      'bounded answer',
    );
    const expected = truthOf([...events(100), { userId: 'user-5', amount: 1000 }])['user-5'];
    expect(answer!.partitionResults[0].result).toEqual(expected);
  });

  it('a new instance warms up before it takes a task over, so the takeover restores only a small tail', async () => {
    const appId = `${ctx.applicationId}-warm`;
    const input = await ctx.createTopic(ctx.topicName('warm'), 2);
    // Many distinct keys: the changelog holds one record per key (about 4,000 per partition).
    const list = Array.from({ length: 8_000 }, (_, i) => ({ userId: `key-${i}`, amount: 1 }));
    await produce(input, list);
    const env = {
      APPLICATION_ID: appId,
      INPUT_TOPIC: input,
      KAFKA_BROKERS: brokers().join(','),
      ACCEPTABLE_RECOVERY_LAG: '500',
      PROBING_REBALANCE_INTERVAL_MS: '4000',
    };
    const a = await ClusterInstance.start({ ...env, STATE_DIR: stateDir() });
    instances.push(a);
    await waitFor(async () => (await committed(input, appId)) === list.length, 180_000, 'loaded');
    await waitFor(async () => (await a.state()).state === 'RUNNING', 30_000, 'A RUNNING');
    const admin = await ctx.admin();
    const changelog = await admin.fetchTopicOffsets(`${appId}-stats-store-changelog`);
    const perPartition = Math.min(...changelog.map((p) => Number(p.high)));
    expect(perPartition).toBeGreaterThan(2000);

    const b = await ClusterInstance.start({ ...env, STATE_DIR: stateDir() });
    instances.push(b);
    // First B only warms up: A keeps both tasks active while B restores a standby copy.
    await waitFor(async () => (await b.state()).standby.length === 1, 60_000, 'B warming up');
    expect((await a.state()).active).toEqual(['0_0', '0_1']);
    const warming = await b.state();
    expect(warming.active).toEqual([]);
    // The standby copy is a warm-up replica, and B says so.
    expect(warming.warmup).toEqual(warming.standby);
    expect((await a.state()).warmup).toEqual([]);
    // After a probing rebalance the warmed-up task moves to B.
    await waitFor(async () => (await b.state()).active.length === 1, 90_000, 'B takes a task over');
    const restoredByB = (await b.state()).restored;
    expect(restoredByB).toBeLessThan(500);
    expect((await a.state()).active).toHaveLength(1);
  });

  it('SHUTDOWN_APPLICATION from one instance stops every instance of the application', async () => {
    const appId = `${ctx.applicationId}-shutdown`;
    const input = await ctx.createTopic(ctx.topicName('shutdown'), 2);
    await produce(input, events(200));
    const env = {
      APPLICATION_ID: appId,
      INPUT_TOPIC: input,
      KAFKA_BROKERS: brokers().join(','),
      FAIL_ON_KEY: 'poison',
      ON_PROCESSING_ERROR: 'SHUTDOWN_APPLICATION',
    };
    const a = await ClusterInstance.start({ ...env, STATE_DIR: stateDir() });
    const b = await ClusterInstance.start({ ...env, STATE_DIR: stateDir() });
    instances.push(a, b);
    await waitFor(async () => (await committed(input, appId)) === 200, 60_000, 'processing');
    await waitFor(
      async () =>
        (await Promise.all([a, b].map((i) => i.state()))).every(
          (s) => s.state === 'RUNNING' && s.active.length === 1,
        ),
      60_000,
      'both RUNNING',
    );
    const producer = ctx.kafka.producer();
    await producer.connect();
    await producer.send({
      topic: input,
      messages: [{ key: 'poison', value: JSON.stringify({ userId: 'poison', amount: 1 }) }],
    });
    await producer.disconnect();
    await waitFor(
      async () =>
        (await Promise.all([a, b].map((i) => i.state()))).every((s) => s.state === 'ERROR'),
      60_000,
      'both instances in ERROR',
    );
  });

  it('a standby catches up (lag 0) and never answers newer than the active; after a SIGKILL it takes over restoring only its lag', async () => {
    const appId = `${ctx.applicationId}-standby`;
    const input = await ctx.createTopic(ctx.topicName('standby'), 2);
    const first = events(4000);
    await produce(input, first);
    const env = {
      APPLICATION_ID: appId,
      INPUT_TOPIC: input,
      KAFKA_BROKERS: brokers().join(','),
      NUM_STANDBY_REPLICAS: '1',
    };
    const a = await ClusterInstance.start({ ...env, STATE_DIR: stateDir() });
    instances.push(a);
    await waitFor(
      async () => (await committed(input, appId)) === first.length,
      60_000,
      'first batch committed',
    );
    const b = await ClusterInstance.start({ ...env, STATE_DIR: stateDir() });
    instances.push(b);
    await waitFor(
      async () => {
        const [sa, sb] = await Promise.all([a.state(), b.state()]);
        return (
          sa.state === 'RUNNING' &&
          sb.state === 'RUNNING' &&
          sa.active.length + sb.active.length === 2 &&
          sa.standby.length + sb.standby.length === 2
        );
      },
      60_000,
      'two RUNNING instances with one standby each',
    );
    // Stale reads on a standby are never newer than the truth (which the active serves).
    const truth = truthOf(first);
    for (const user of ['user-1', 'user-2', 'user-3']) {
      for (const instance of [a, b]) {
        const r = await instance.get<OrderStats>(`/get/${user}?stale=1`);
        if (r.status === 200) expect(r.body.count).toBeLessThanOrEqual(truth[user].count);
      }
    }
    // With input stopped, every standby's lag falls to zero.
    await waitFor(
      async () => {
        const lags = await Promise.all(
          [a, b].map((i) => i.get<Record<string, Record<string, { offsetLag: number }>>>('/lags')),
        );
        const all = lags.flatMap((l) => Object.values(l.body['stats-store'] ?? {}));
        return all.length === 4 && all.every((l) => l.offsetLag === 0);
      },
      30_000,
      'standby lag 0',
    );
    const staleAll = await Promise.all(
      [a, b].map((i) => i.get<Record<string, OrderStats>>('/all?stale=1')),
    );
    for (const view of staleAll) {
      expect(Object.keys(view.body).length).toBe(USERS);
      for (const [user, value] of Object.entries(view.body)) expect(value).toEqual(truth[user]);
    }

    // Kill the instance that runs task 0_0 as active; the other has its standby.
    const [sa] = await Promise.all([a.state()]);
    const victim = sa.active.includes('0_0') ? a : b;
    const survivor = victim === a ? b : a;
    const restoredBefore = (await survivor.state()).restored;
    await victim.kill('SIGKILL');
    const second = events(1000, 4000);
    await produce(input, second);
    const all = [...first, ...second];
    await waitFor(
      async () => (await survivor.state()).active.length === 2,
      60_000,
      'survivor runs both tasks',
    );
    await waitFor(
      async () => (await committed(input, appId)) === all.length,
      60_000,
      'everything committed',
    );
    const restoredAfter = (await survivor.state()).restored;
    // The takeover restored at most the standby's lag (zero or a few records), far below the changelog.
    expect(restoredAfter - restoredBefore).toBeLessThan(100);
    const finalTruth = truthOf(all);
    const view = await survivor.get<Record<string, OrderStats>>('/all');
    expect(view.body).toEqual(finalTruth);
  });
});

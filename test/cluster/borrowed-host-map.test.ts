/**
 * A restarted instance routes queries from its first moment: an instance killed (SIGKILL) and
 * started again at once finds the group still stable (its old member not yet expired), reads the
 * group's current host map (DescribeGroups) before it joins, and answers `queryMetadataForKey`
 * by it — the same owners and standbys as the other instance — during the session timeout its
 * own first assignment waits for. Before this, it answered NOT_AVAILABLE ("no instance is the
 * confirmed owner") for every key until then. On both clients, separate processes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brokers, KafkaTestContext } from '../support/kafka-test-context';
import { ClusterInstance, type InstanceState, waitFor } from './cluster-harness';

const USERS = 24;
const PARTITIONS = 4;
/**
 * The window the test looks in: the killed member's session, which the restarted process must
 * outrun (a process started through tsx on a loaded 2-core machine took over 12 s to answer).
 */
const SESSION_TIMEOUT_MS = 30_000;

/** `KeyQueryMetadata` as JSON: hosts as `host:port` (NOT_AVAILABLE: `unavailable:-1`). */
interface Meta {
  activeHost: string;
  standbyHosts: string[];
  partition: number;
}

describe.each(['kafkajs', '@platformatic/kafka'])('a restarted instance on %s', (client) => {
  const ctx = new KafkaTestContext();
  const dirs: string[] = [];
  const instances: ClusterInstance[] = [];
  afterAll(async () => {
    await Promise.all(instances.map((i) => i.kill('SIGTERM')));
    await ctx.cleanup();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const users = Array.from({ length: USERS }, (_, i) => `user-${i}`);
  const metaOf = async (instance: ClusterInstance): Promise<Record<string, Meta>> =>
    Object.fromEntries(
      await Promise.all(
        users.map(async (u) => [u, (await instance.get<Meta>(`/meta/${u}`)).body] as const),
      ),
    );
  const copiesOf = async (instance: ClusterInstance): Promise<(string | null)[]> =>
    Promise.all(
      Array.from(
        { length: PARTITIONS },
        async (_, p) => (await instance.get<{ copy: string | null }>(`/copy/${p}`)).body.copy,
      ),
    );
  const unassigned = (s: InstanceState): boolean =>
    s.active.length === 0 &&
    s.standby.length === 0 &&
    !s.transitions.some((t) => t.state === 'RUNNING');

  it('answers queryMetadataForKey from the group’s host map before its own first assignment', async () => {
    const input = await ctx.createTopic(ctx.topicName('borrow'), PARTITIONS);
    const producer = ctx.kafka.producer();
    await producer.connect();
    await producer.send({
      topic: input,
      messages: users.map((userId) => ({
        key: userId,
        value: JSON.stringify({ userId, amount: 1 }),
      })),
    });
    await producer.disconnect();
    const env = {
      NEST_STREAMS_CLIENT: client,
      APPLICATION_ID: ctx.applicationId,
      INPUT_TOPIC: input,
      KAFKA_BROKERS: brokers().join(','),
      SESSION_TIMEOUT_MS: String(SESSION_TIMEOUT_MS),
      NUM_STANDBY_REPLICAS: '1',
    };
    const dirA = mkdtempSync(join(tmpdir(), 'borrow-a-'));
    const dirB = mkdtempSync(join(tmpdir(), 'borrow-b-'));
    dirs.push(dirA, dirB);
    const a = await ClusterInstance.start({ ...env, STATE_DIR: dirA });
    const b = await ClusterInstance.start({ ...env, STATE_DIR: dirB });
    instances.push(a, b);
    await waitFor(
      async () => {
        const states = await Promise.all([a.state(), b.state()]);
        return states.every((s) => s.state === 'RUNNING' && s.active.length === 2);
      },
      90_000,
      'A and B RUNNING with two tasks each',
      { context: () => `${a.output.slice(-2000)}\n---\n${b.output.slice(-2000)}` },
    );
    const before = await metaOf(b);
    const owners = new Set(Object.values(before).map((m) => m.activeHost));
    expect(owners).toEqual(new Set([a.endpoint, b.endpoint]));

    await a.kill('SIGKILL');
    const a2 = await ClusterInstance.start({ ...env, STATE_DIR: dirA }, a.port);
    instances.push(a2);
    // Once its HTTP server answers and while it still has no assignment of its own.
    let borrowed: Record<string, Meta> | undefined;
    let copies: (string | null)[] = [];
    await waitFor(
      async () => {
        const state = await a2.state().catch(() => undefined);
        if (!state || !unassigned(state) || state.state !== 'REBALANCING') return false;
        const meta = await metaOf(a2);
        copies = await copiesOf(a2);
        // Still without an assignment after the reads: what they saw was the borrowed map.
        if (!unassigned(await a2.state())) return false;
        borrowed = meta;
        return Object.values(meta).every((m) => m.partition >= 0);
      },
      SESSION_TIMEOUT_MS,
      'the restarted A routing before its first assignment',
      { context: () => a2.output.slice(-3000) },
    );
    expect(borrowed).toEqual(before);
    expect(copies).toEqual(Array.from({ length: PARTITIONS }, () => null));

    // Its own assignment replaces it; its copies then match what the metadata says of it.
    await waitFor(
      async () => (await a2.state()).state === 'RUNNING' && (await b.state()).state === 'RUNNING',
      90_000,
      'A restarted and B RUNNING',
      { context: () => a2.output.slice(-3000) },
    );
    const after = await metaOf(a2);
    const expected = Array.from({ length: PARTITIONS }, (_, p) => {
      const m = Object.values(after).find((x) => x.partition === p);
      if (!m) return undefined;
      if (m.activeHost === a2.endpoint) return 'active';
      return m.standbyHosts.includes(a2.endpoint) ? 'standby' : null;
    });
    // A standby copy is queryable once its changelog's end is known: shortly after RUNNING.
    await waitFor(
      async () => JSON.stringify(await copiesOf(a2)) === JSON.stringify(expected),
      15_000,
      `A's copies ${JSON.stringify(expected)}`,
    ).catch(() => undefined);
    expect(await copiesOf(a2)).toEqual(expected);
  }, 240_000);
});

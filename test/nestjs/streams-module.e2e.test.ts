/**
 * End-to-end: three Nest application processes (the order-stats contract, built with
 * StreamsModule's decorators) on the real broker. Every key through every instance gives the
 * same exact answer with the owner's X-Served-By; a scatter-gather range is the union of every
 * partition; readiness goes down during a rebalance and up after; the metrics endpoint scrapes
 * and its routing counters move.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DefaultStreamPartitioner } from '@nest-streams/streams';
import { HTTP_PLATFORMS } from '../support/http-platforms';
import { brokers, KafkaTestContext } from '../support/kafka-test-context';
import { OrderStatsInstance, type OrderStats } from '../../tools/instances/order-stats-instance';
import { readyAndRunning } from '../support/health';
import { waitFor } from '../support/wait-for';

const PARTITIONS = 6;
const USERS = 45;

describe.each(HTTP_PLATFORMS)(
  'StreamsModule end-to-end: three Nest instances on the real broker, on %s',
  (platform) => {
    const ctx = new KafkaTestContext();
    const dirs: string[] = [];
    const instances: OrderStatsInstance[] = [];
    const truth: Record<string, OrderStats> = {};
    const users = Array.from({ length: USERS }, (_, i) => `user-${String(i).padStart(2, '0')}`);
    let env: Record<string, string>;

    const stateDir = (): string => {
      const dir = mkdtempSync(join(tmpdir(), 'nest-e2e-'));
      dirs.push(dir);
      return dir;
    };
    const diagnostics = () =>
      instances.map((i) => `--- ${i.endpoint}\n${i.output.slice(-3000)}`).join('\n');

    beforeAll(async () => {
      const input = await ctx.createTopic(ctx.topicName('orders'), PARTITIONS);
      env = {
        APPLICATION_ID: ctx.applicationId,
        HTTP_PLATFORM: platform,
        INPUT_TOPIC: input,
        KAFKA_BROKERS: brokers().join(','),
        NUM_STANDBY_REPLICAS: '1',
      };
      const events = Array.from({ length: 1800 }, (_, i) => ({
        userId: users[i % USERS],
        amount: (i % 7) + 1,
      }));
      for (const e of events) {
        const t = (truth[e.userId] ??= { count: 0, sum: 0 });
        t.count++;
        t.sum += e.amount;
      }
      const producer = ctx.kafka.producer();
      await producer.connect();
      await producer.send({
        topic: input,
        messages: events.map((e) => ({ key: e.userId, value: JSON.stringify(e) })),
      });
      await producer.disconnect();

      for (let i = 0; i < 3; i++)
        instances.push(await OrderStatsInstance.start({ ...env, STATE_DIR: stateDir() }));
      await waitFor(
        async () =>
          (
            await Promise.all(
              instances.map(async (i) => readyAndRunning(await i.get('/health/ready'))),
            )
          ).every(Boolean),
        120_000,
        'three ready instances',
      ).catch((error: unknown) => {
        throw new Error(`${String(error)}\n${diagnostics()}`);
      });
      // Every event aggregated (the last user's count is exact everywhere).
      await waitFor(
        async () => {
          const answers = await Promise.all(
            users.map((u) => instances[0].get<OrderStats>(`/stats/${u}`)),
          );
          return answers.every(
            (a, i) => a.status === 200 && a.body.count === truth[users[i]].count,
          );
        },
        60_000,
        'every event aggregated',
      ).catch((error: unknown) => {
        throw new Error(`${String(error)}\n${diagnostics()}`);
      });
    }, 240_000);

    afterAll(async () => {
      await Promise.all(instances.splice(0).map((i) => i.stop()));
      await ctx.cleanup();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }, 120_000);

    it('answers every key identically and exactly through every instance, served by its owner', async () => {
      const partitioner = new DefaultStreamPartitioner();
      const metadata = (
        await instances[0].get<{
          instances: { host: string; stores: Record<string, { active: number[] }> }[];
        }>('/streams/metadata')
      ).body;
      expect(metadata.instances.map((m) => m.host).sort()).toEqual(
        instances.map((i) => i.endpoint).sort(),
      );
      const ownerOf = (user: string): string => {
        const partition = partitioner.partition(Buffer.from(user, 'utf8'), PARTITIONS);
        const owner = metadata.instances.find((m) =>
          m.stores['stats-store']?.active.includes(partition),
        );
        return owner!.host;
      };
      const servedBy = new Set<string>();
      for (const user of users) {
        const owner = ownerOf(user);
        for (const instance of instances) {
          const answer = await instance.get<OrderStats>(`/stats/${user}`);
          expect({
            user,
            via: instance.endpoint,
            status: answer.status,
            body: answer.body,
          }).toEqual({
            user,
            via: instance.endpoint,
            status: 200,
            body: truth[user],
          });
          expect(answer.headers.get('x-served-by')).toBe(owner);
          expect(answer.headers.get('x-stale')).toBeNull();
          servedBy.add(answer.headers.get('x-served-by')!);

          // The same key through InteractiveQueryService: the owner's partition over the
          // instance-to-instance query transport when it is elsewhere.
          const viaQuery = await instance.get(`/stats/range?from=${user}&to=${user}`);
          expect(viaQuery.status).toBe(200);
          expect(viaQuery.body).toEqual([{ userId: user, ...truth[user] }]);
        }
      }
      // Keys spread over all three owners.
      expect(servedBy.size).toBe(3);
      // An unknown user is a 404 from its owner, through any instance.
      for (const instance of instances) {
        const missing = await instance.get('/stats/nobody-at-all');
        expect(missing.status).toBe(404);
      }
    });

    it('serves windowed counts of a key from every instance', async () => {
      const user = users[3];
      const answers = await Promise.all(
        instances.map((i) =>
          i.get<{ count: number }[]>(`/windowed/${user}?from=0&to=${Date.now()}`),
        ),
      );
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect(answer.body.reduce((n, w) => n + w.count, 0)).toBe(truth[user].count);
      }
    });

    it('scatter-gathers a range across every instance: the union of the partitions, sorted', async () => {
      const expected = users.map((userId) => ({ userId, ...truth[userId] }));
      for (const instance of instances) {
        const all = await instance.get<{ userId: string }[]>('/stats/range?from=a&to=z');
        expect(all.status).toBe(200);
        expect(all.body).toEqual(expected);
        const part = await instance.get<{ userId: string }[]>(
          '/stats/range?from=user-10&to=user-19',
        );
        expect(part.body).toEqual(
          expected.filter((e) => e.userId >= 'user-10' && e.userId <= 'user-19'),
        );
      }
    });

    it('scrapes metrics whose routing counters move', async () => {
      const before = await Promise.all(instances.map((i) => i.get<string>('/metrics')));
      for (const scrape of before) {
        expect(scrape.status).toBe(200);
        expect(scrape.body).toContain('kafka_streams_state{state="RUNNING"} 1');
        expect(scrape.body).toMatch(/kafka_streams_store_operations\{store="stats-store"/);
      }
      for (const user of users) await instances[0].get(`/stats/${user}`);
      const after = await instances[0].get<string>('/metrics');
      const local = routingCount(after.body, 'local') - routingCount(before[0].body, 'local');
      const forwarded =
        routingCount(after.body, 'forwarded') - routingCount(before[0].body, 'forwarded');
      expect(local + forwarded).toBe(users.length);
      expect(local).toBeGreaterThan(0);
      expect(forwarded).toBeGreaterThan(0);
    });

    it('stays ready and live through a rebalance, saying so in the details', async () => {
      // Every running instance is watched while a fourth joins: a member that already restored
      // its first assignment stays in the Service through the rebalance (it answers, forwards
      // or says 503 + Retry-After per key); the details tell the rebalance.
      type Ready = { details?: { streams?: { rebalancing?: boolean } } };
      const watched = [...instances];
      const seen = watched.map(() => [] as number[]);
      const live = watched.map(() => [] as number[]);
      let rebalancingSeen = false;
      let watching = true;
      const watchers = watched.map(async (instance, i) => {
        while (watching) {
          const [ready, alive] = await Promise.all([
            instance.get<Ready>('/health/ready').catch(() => ({ status: 0, body: {} as Ready })),
            instance.get('/health/live').catch(() => ({ status: 0 })),
          ]);
          seen[i].push(ready.status);
          live[i].push(alive.status);
          if (ready.body.details?.streams?.rebalancing === true) rebalancingSeen = true;
        }
      });
      // A fourth instance joins: the group rebalances and tasks move to it.
      instances.push(await OrderStatsInstance.start({ ...env, STATE_DIR: stateDir() }));
      try {
        await waitFor(
          async () =>
            (
              await Promise.all(
                instances.map(async (i) => readyAndRunning(await i.get('/health/ready'))),
              )
            ).every(Boolean),
          120_000,
          'every instance ready and RUNNING',
        );
      } catch (error) {
        throw new Error(
          `${String(error)}; readiness seen ${JSON.stringify(seen.map((s) => s.slice(-30)))}\n${diagnostics()}`,
        );
      } finally {
        watching = false;
        await Promise.all(watchers);
      }
      expect(rebalancingSeen).toBe(true);
      expect(seen.flat().filter((status) => status !== 200)).toEqual([]);
      expect(live.flat().filter((status) => status !== 200)).toEqual([]);
      const details = await watched[0].get<{ details: { streams: { rebalances: number } } }>(
        '/health/ready',
      );
      expect(details.body.details.streams.rebalances).toBeGreaterThanOrEqual(2);
      // Answers are still exact after the move.
      for (const user of users.slice(0, 10)) {
        const answer = await instances[3].get<OrderStats>(`/stats/${user}`);
        expect(answer.body).toEqual(truth[user]);
      }
    });
  },
);

/** A routing outcome's count in a Prometheus scrape. */
function routingCount(metrics: string, outcome: string): number {
  const match = new RegExp(
    `kafka_streams_routing_requests_total\\{outcome="${outcome}"\\} (\\d+)`,
  ).exec(metrics);
  return match ? Number(match[1]) : NaN;
}

/**
 * A healthy start is quiet: the example application as built (dist/), on each Kafka client,
 * starts, takes events, rebalances when a second instance joins and again when it leaves,
 * answers every user exactly through both instances while probes are polled throughout, and
 * neither log holds a WARN or ERROR line (kafkajs' routine group answers at debug, the engine's
 * producer naming its partitioner, the probes' answers logged once per change).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OrderStatsInstance } from '../../tools/instances/order-stats-instance';
import { readyAndRunning } from '../support/health';
import { brokers, KafkaTestContext } from '../support/kafka-test-context';
import { nestLogLines, warningsAndErrors } from '../support/nest-log';
import { waitFor } from '../support/wait-for';

const USERS = 12;
const EVENTS = 600;

describe.each(['kafkajs', '@platformatic/kafka'])(
  'order-stats: a healthy start and rebalance log no warning or error (%s)',
  (client) => {
    const ctx = new KafkaTestContext();
    const dirs: string[] = [];
    const instances: OrderStatsInstance[] = [];
    afterAll(async () => {
      await Promise.all(instances.map((i) => i.stop()));
      await ctx.cleanup();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    });

    it('starts, rebalances twice and answers with a quiet log', async () => {
      const input = await ctx.createTopic(ctx.topicName('quiet'), 6);
      const env = {
        KAFKA_BROKERS: brokers().join(','),
        KAFKA_CLIENT: client,
        APPLICATION_ID: ctx.applicationId,
        INPUT_TOPIC: input,
        NUM_STANDBY_REPLICAS: '1',
        COMMIT_INTERVAL_MS: '200',
      };
      const start = async (): Promise<OrderStatsInstance> => {
        const dir = mkdtempSync(join(tmpdir(), 'quiet-start-'));
        dirs.push(dir);
        const instance = await OrderStatsInstance.start(
          { ...env, STATE_DIR: dir },
          {},
          { built: true },
        );
        instances.push(instance);
        return instance;
      };
      // Probes every 500 ms from the moment each instance starts, as a kubelet would.
      const probing = new Set<OrderStatsInstance>();
      const probe = setInterval(() => {
        for (const instance of probing) {
          for (const path of ['/health/started', '/health/ready', '/health/live']) {
            void instance.request(path).catch(() => undefined);
          }
        }
      }, 500);
      const running = (instance: OrderStatsInstance, what: string) =>
        waitFor(
          async () => readyAndRunning(await instance.request('/health/ready')),
          120_000,
          what,
          {
            abortIf: () => (instance.alive ? undefined : `it exited:\n${instance.output}`),
            context: () => instance.output.slice(-3000),
          },
        );
      const truth = new Map<string, { count: number; sum: number }>();
      const expectExact = async (via: OrderStatsInstance): Promise<void> => {
        for (const [user, stats] of truth) {
          const answer = await via.request(`/stats/${user}`);
          expect({ user, status: answer.status, body: answer.body }).toEqual({
            user,
            status: 200,
            body: stats,
          });
        }
      };

      try {
        const a = await start();
        probing.add(a);
        await running(a, 'A running');

        const producer = ctx.kafka.producer();
        await producer.connect();
        await producer.send({
          topic: input,
          messages: Array.from({ length: EVENTS }, (_, i) => {
            const userId = `user-${String(i % USERS).padStart(2, '0')}`;
            const amount = (i % 7) + 1;
            const t = truth.get(userId) ?? { count: 0, sum: 0 };
            truth.set(userId, { count: t.count + 1, sum: t.sum + amount });
            return { key: userId, value: JSON.stringify({ userId, amount }) };
          }),
        });
        await producer.disconnect();
        await waitFor(
          async () => (await a.request('/stats/user-00')).status === 200,
          60_000,
          'the first events processed',
        );

        // The second instance joins: a rebalance on both.
        const b = await start();
        probing.add(b);
        await running(b, 'B running');
        await running(a, 'A running again');
        await waitFor(
          async () => {
            for (const [user, stats] of truth) {
              const answer = await b.request(`/stats/${user}`);
              if (answer.status !== 200 || JSON.stringify(answer.body) !== JSON.stringify(stats))
                return false;
            }
            return true;
          },
          60_000,
          'every user exact through B',
        );
        await expectExact(a);
        await expectExact(b);
        const servedBy = new Set<string | null>();
        for (const user of truth.keys()) {
          servedBy.add((await a.request(`/stats/${user}`)).headers.get('x-served-by'));
        }
        expect(servedBy).toEqual(new Set([a.endpoint, b.endpoint]));

        // The second instance leaves cleanly: a rebalance on the first.
        probing.delete(b);
        await b.stop('SIGTERM');
        await waitFor(
          async () => {
            for (const user of truth.keys()) {
              const answer = await a.request(`/stats/${user}`);
              const local = answer.headers.get('x-served-by') === a.endpoint;
              if (answer.status !== 200 || !local || answer.headers.has('x-stale')) return false;
            }
            return true;
          },
          60_000,
          'A the owner of every user',
        );
        await running(a, 'A running alone');
        await expectExact(a);
        probing.delete(a);
        await a.stop('SIGTERM');

        for (const [name, instance] of [
          ['A', a],
          ['B', b],
        ] as const) {
          expect({ instance: name, lines: warningsAndErrors(instance.output) }).toEqual({
            instance: name,
            lines: [],
          });
          // Readiness was down while the instance started: logged once, not at every probe.
          const starting = nestLogLines(instance.output).filter(
            (l) =>
              l.context === 'StreamsHealth' && l.message.startsWith('readiness down [STARTING]'),
          );
          expect({ instance: name, starting: starting.length }).toEqual({
            instance: name,
            starting: 1,
          });
        }
      } finally {
        clearInterval(probe);
      }
    }, 300_000);
  },
);

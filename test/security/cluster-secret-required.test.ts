/**
 * A cluster of the example application without a cluster secret: two instances of one
 * application, started as processes without `FORWARDING_SECRET`, are refused at start-up
 * (exit 1, before connecting to anything) with the module's message naming
 * `security.clusterSecret`; with the explicit `SECURITY_INSECURE=true` switch both start, say
 * so in their log, and serve each other's keys.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OrderStatsInstance } from '../../tools/instances/order-stats-instance';
import { readyAndRunning } from '../support/health';
import { brokers, KafkaTestContext } from '../support/kafka-test-context';
import { waitFor } from '../support/wait-for';

const REFUSAL =
  'security.clusterSecret is not set, but this instance works with other instances ' +
  '(streams.applicationServer or queries.remote is set): set security.clusterSecret to a ' +
  'random secret of 16+ characters shared by every instance (e.g. from a Kubernetes Secret). ' +
  'Without it anyone who can reach the query port could read every store. For local ' +
  'development only, security.insecure: true starts without one.';
const INSECURE_WARNING =
  'security.insecure: instance-to-instance queries and forwarded requests are authenticated with a key derived from the application id';

describe('order-stats: several instances need a cluster secret', () => {
  const ctx = new KafkaTestContext();
  const dir = mkdtempSync(join(tmpdir(), 'cluster-secret-'));
  const instances: OrderStatsInstance[] = [];
  afterAll(async () => {
    await Promise.all(instances.map((i) => i.stop('SIGKILL')));
    await ctx.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  const start = async (env: Record<string, string>, name: string) => {
    const instance = await OrderStatsInstance.start({
      KAFKA_BROKERS: brokers().join(','),
      APPLICATION_ID: ctx.applicationId,
      STATE_DIR: join(dir, name),
      ...env,
    });
    instances.push(instance);
    return instance;
  };
  /** The exit code, or 'still running' after 60 s (a refused start exits within seconds). */
  const exitOf = (instance: OrderStatsInstance) =>
    new Promise<number | null | 'still running'>((resolve) => {
      if (instance.process.exitCode !== null) return resolve(instance.process.exitCode);
      const timer = setTimeout(() => resolve('still running'), 60_000);
      instance.process.once('exit', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });

  it('refuses to start two instances without FORWARDING_SECRET, naming the option', async () => {
    const topic = await ctx.createTopic(ctx.topicName('no-secret'), 2);
    const noSecret = { FORWARDING_SECRET: '', INPUT_TOPIC: topic };
    const both = await Promise.all([start(noSecret, 'a'), start(noSecret, 'b')]);
    const exits = await Promise.all(both.map(exitOf));
    expect(exits).toEqual([1, 1]);
    for (const instance of both) {
      expect(instance.output).toContain(REFUSAL);
      // Refused while the module was set up: no query server, and the client never started.
      expect(instance.output).not.toContain('answering instance-to-instance queries');
      expect(instance.output).not.toMatch(/\bSTATE [A-Z_]+/);
    }
  });

  it('starts them with the explicit insecure switch, which it warns about', async () => {
    const topic = await ctx.createTopic(ctx.topicName('insecure'), 2);
    const env = { SECURITY_INSECURE: 'true', INPUT_TOPIC: topic };
    const both = await Promise.all([start(env, 'c'), start(env, 'd')]);
    for (const instance of both) {
      await waitFor(
        async () => readyAndRunning(await instance.request('/health/ready')),
        120_000,
        'the insecure instance ready and RUNNING',
        {
          abortIf: () => (instance.process.exitCode !== null ? 'it exited' : undefined),
          context: () => instance.output.slice(-3000),
        },
      );
      expect(instance.output).toContain(INSECURE_WARNING);
      expect(instance.output).not.toContain(REFUSAL);
    }
    // They work together: a range covers both instances' partitions (it goes over the query
    // port); an empty topic gives an empty, complete answer from each.
    for (const instance of both) {
      const range = await instance.request('/stats/range?from=a&to=z');
      expect({ status: range.status, body: range.body }).toEqual({ status: 200, body: [] });
    }
  });
});

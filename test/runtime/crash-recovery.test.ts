import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brokers, KafkaTestContext } from '../support/kafka-test-context';
import type { OrderStats } from './stats-topology';

const APP = join(__dirname, 'fixtures', 'stats-app.ts');

interface Child {
  process: ChildProcess;
  output: string;
}

function startApp(env: Record<string, string>): Child {
  const child: Child = {
    process: spawn(process.execPath, ['--import', 'tsx', APP], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
    output: '',
  };
  child.process.stdout!.on('data', (d: Buffer) => (child.output += d.toString()));
  child.process.stderr!.on('data', (d: Buffer) => (child.output += d.toString()));
  return child;
}

async function waitFor(
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: () => string | Promise<string>,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${await what()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const exited = (child: Child): Promise<number | null> =>
  new Promise((resolve) => {
    if (child.process.exitCode !== null || child.process.signalCode !== null)
      resolve(child.process.exitCode);
    else child.process.once('exit', (code) => resolve(code));
  });

/**
 * A child process running the stats aggregation is SIGKILLed mid-stream and restarted; the
 * final per-user counts must be exact (exactly-once) or never below the truth (at-least-once).
 */
describe.each(['at_least_once', 'exactly_once_v2'] as const)(
  'crash recovery under %s',
  (guarantee) => {
    const ctx = new KafkaTestContext();
    const stateDir = mkdtempSync(join(tmpdir(), 'crash-'));
    const children: Child[] = [];
    afterAll(async () => {
      for (const c of children) if (c.process.exitCode === null) c.process.kill('SIGKILL');
      await ctx.cleanup();
      rmSync(stateDir, { recursive: true, force: true });
    });

    it('loses no update after a SIGKILL mid-stream', async () => {
      const input = await ctx.createTopic(ctx.topicName('crash-in'), 3);
      const users = 40;
      const total = 6000;
      const events = Array.from({ length: total }, (_, i) => ({
        userId: `user-${i % users}`,
        amount: (i % 10) + 1,
      }));
      const truth = new Map<string, OrderStats>();
      for (const e of events) {
        const t = truth.get(e.userId) ?? { count: 0, sum: 0 };
        truth.set(e.userId, { count: t.count + 1, sum: t.sum + e.amount });
      }
      const env = {
        APPLICATION_ID: ctx.applicationId,
        INPUT_TOPIC: input,
        KAFKA_BROKERS: brokers().join(','),
        STATE_DIR: stateDir,
        PROCESSING_GUARANTEE: guarantee,
        COMMIT_INTERVAL_MS: guarantee === 'exactly_once_v2' ? '100' : '300',
        DUMP_FILE: join(stateDir, 'dump.json'),
      };
      const admin = await ctx.admin();
      // Offsets committed so far; 0 while the group's coordinator is moving or loading (a fresh
      // broker loads __consumer_offsets after the first commits), any other error thrown.
      const committed = async (): Promise<number> => {
        try {
          const offsets = await admin.fetchOffsets({ groupId: ctx.applicationId, topics: [input] });
          return offsets[0].partitions.reduce((n, p) => n + Math.max(0, Number(p.offset)), 0);
        } catch (error) {
          if ((error as { retriable?: boolean }).retriable === true) return 0;
          throw error;
        }
      };

      // Per partition, committed offset / end offset (what a timed-out wait reports).
      const positions = async (): Promise<string> => {
        const ends = await admin.fetchTopicOffsets(input);
        const offsets = await admin
          .fetchOffsets({ groupId: ctx.applicationId, topics: [input] })
          .catch((error: unknown) => [{ partitions: [], error: String(error) }]);
        return ends
          .sort((a, b) => a.partition - b.partition)
          .map((e) => {
            const c = offsets[0].partitions.find((p) => p.partition === e.partition);
            return `p${e.partition} ${c?.offset ?? '?'}/${e.high}`;
          })
          .join(', ');
      };

      // Idempotent: a just-created topic's partitions may answer NOT_LEADER_OR_FOLLOWER to the
      // first Produce while the metadata already names their leader; kafkajs then resends the
      // whole request, and a plain producer writes the partitions that had succeeded twice.
      const producer = ctx.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
      await producer.connect();
      const send = async (from: number, to: number): Promise<void> => {
        for (let i = from; i < to; i += 500) {
          await producer.send({
            topic: input,
            messages: events
              .slice(i, Math.min(to, i + 500))
              .map((e) => ({ key: e.userId, value: JSON.stringify(e) })),
          });
        }
      };

      await send(0, 2000);
      const first = startApp(env);
      children.push(first);
      await waitFor(
        async () => (await committed()) >= 1000,
        60_000,
        () => `first commits (${first.output})`,
      );
      // Keep producing while the app runs, then kill it without warning.
      const producing = send(2000, 4000);
      await new Promise((r) => setTimeout(r, 300));
      first.process.kill('SIGKILL');
      await exited(first);
      await producing;
      await send(4000, total);
      // Each event is in the input once (a producer retry that duplicated a batch would make
      // "all input committed" unreachable): the end offsets add up to the events sent.
      const ends = await admin.fetchTopicOffsets(input);
      expect(ends.reduce((n, p) => n + Number(p.high), 0)).toBe(total);
      expect(await committed()).toBeLessThan(total);

      const second = startApp(env);
      children.push(second);
      await waitFor(
        async () => (await committed()) === total,
        90_000,
        async () =>
          `all input committed: ${await positions()}; second instance printed: ${second.output}`,
      );
      second.process.kill('SIGTERM');
      expect(await exited(second)).toBe(0);
      await producer.disconnect();

      expect(existsSync(env.DUMP_FILE)).toBe(true);
      const dump = JSON.parse(readFileSync(env.DUMP_FILE, 'utf8')) as Record<string, OrderStats>;
      expect(Object.keys(dump).sort()).toEqual([...truth.keys()].sort());
      if (guarantee === 'exactly_once_v2') {
        expect(dump).toEqual(Object.fromEntries(truth));
      } else {
        for (const [user, t] of truth) {
          expect(dump[user].count).toBeGreaterThanOrEqual(t.count);
          expect(dump[user].sum).toBeGreaterThanOrEqual(t.sum);
        }
      }
    });
  },
);

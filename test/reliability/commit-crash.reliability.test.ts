import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brokers, KafkaTestContext } from '../support/kafka-test-context';
import { recordFigures } from './support/reliability-report';
import { sized } from './support/reliability-size';

const APP = join(__dirname, 'support', 'commit-crash-app.ts');
/** Events: enough for every task to pass the 10,000-record checkpoint threshold between kills. */
const EVENTS = sized({ reduced: 24_000, full: 200_000 });
const USERS = sized({ reduced: 20_000, full: 100_000 });
const PARTITIONS = sized({ reduced: 2, full: 6 });
const KILLS = sized({ reduced: 3, full: 12 });
const SEED = Number(process.env.CHAOS_SEED ?? Date.now() % 1_000_000);
const WINDOW_MS = 5 * 60_000;

/** Where a commit can be cut: every phase of an exactly-once commit and of its checkpoints. */
const COMMIT_PHASES = [
  'caches-flushed',
  'producer-flushed',
  'transaction-committed',
  'state-committed',
];
const CHECKPOINT_PHASES = ['stores-flushed', 'checkpoint-written'];

interface Child {
  readonly process: ChildProcess;
  output: string;
}

function start(env: Record<string, string>): Child {
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

const exited = (child: Child): Promise<NodeJS.Signals | number | null> =>
  new Promise((resolve) => {
    const { exitCode, signalCode } = child.process;
    if (exitCode !== null || signalCode !== null) resolve(signalCode ?? exitCode);
    else child.process.once('exit', (code, signal) => resolve(signal ?? code));
  });

async function waitFor(
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A small seeded generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `topic partition` -> offset, from every task's `.checkpoint` under the application's dir. */
function checkpoints(appDir: string): Map<string, number> {
  const found = new Map<string, number>();
  if (!existsSync(appDir)) return found;
  for (const task of readdirSync(appDir)) {
    const file = join(appDir, task, '.checkpoint');
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, 'utf8').split('\n').slice(2)) {
      const [topic, partition, offset] = line.split(' ');
      if (offset !== undefined) found.set(`${topic} ${partition}`, Number(offset));
    }
  }
  return found;
}

/** `store partition` -> first offset restored, from a child's `RESTORE` lines. */
function restoreStarts(output: string): Map<string, number> {
  const starts = new Map<string, number>();
  for (const match of output.matchAll(/^RESTORE (\S+) (\d+) (\d+) (\d+)$/gm)) {
    starts.set(`${match[1]} ${match[2]}`, Number(match[3]));
  }
  return starts;
}

/**
 * Exactly-once state survives SIGKILL at any point of a commit: an instance of the source
 * text's aggregations (kv and windowed stores, every event logged) is killed at a random phase
 * of a random commit — before the transaction, between the Kafka commit and the RocksDB write,
 * between a memtable flush and its checkpoint — and restarted on the same state directory,
 * several times, while the input is processed. Every restart must resume each store after the
 * checkpoint the killed instance left (no wipe, no full restore), and in the end every count,
 * sum and windowed count must be exact.
 */
describe('commit crash: SIGKILL inside exactly-once commits', () => {
  const ctx = new KafkaTestContext();
  const stateDir = mkdtempSync(join(tmpdir(), 'commit-crash-'));
  const children: Child[] = [];

  afterAll(async () => {
    for (const c of children) if (c.process.exitCode === null) c.process.kill('SIGKILL');
    await ctx.cleanup();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it(
    'keeps every value exact and restores only the tail after each kill',
    async () => {
      const started = Date.now();
      const next = random(SEED);
      const input = await ctx.createTopic(ctx.topicName('crash-in'), PARTITIONS);
      const output = await ctx.createTopic(ctx.topicName('crash-out'), PARTITIONS);
      const base = Math.floor(Date.now() / WINDOW_MS) * WINDOW_MS - 40 * 60_000;
      const events = Array.from({ length: EVENTS }, (_, i) => ({
        userId: `user-${String(Math.floor(next() * USERS)).padStart(5, '0')}`,
        amount: 1 + Math.floor(next() * 100),
        timestamp: base + Math.floor((i / EVENTS) * 35 * 60_000),
      }));
      const stats = new Map<string, { count: number; sum: number }>();
      const windowed = new Map<string, number>();
      for (const e of events) {
        const s = stats.get(e.userId) ?? { count: 0, sum: 0 };
        stats.set(e.userId, { count: s.count + 1, sum: s.sum + e.amount });
        const w = `${e.userId}@${Math.floor(e.timestamp / WINDOW_MS) * WINDOW_MS}`;
        windowed.set(w, (windowed.get(w) ?? 0) + 1);
      }
      const producer = ctx.kafka.producer();
      await producer.connect();
      let produced = 0;
      /**
       * Produces the input up to `upTo`, 500 events every 50 ms: each round processes (and
       * dies in) its own share while it arrives, over many commits.
       */
      const produce = async (upTo: number): Promise<void> => {
        while (produced < upTo) {
          const end = Math.min(upTo, produced + 500);
          await producer.send({
            topic: input,
            messages: events.slice(produced, end).map((e) => ({
              key: e.userId,
              value: JSON.stringify({ userId: e.userId, amount: e.amount }),
              timestamp: String(e.timestamp),
            })),
          });
          produced = end;
          await new Promise((r) => setTimeout(r, 50));
        }
      };
      const admin = await ctx.admin();
      /** Input records committed by the group; -1 while its coordinator is not there yet. */
      const committed = async (): Promise<number> => {
        try {
          const offsets = await admin.fetchOffsets({ groupId: ctx.applicationId, topics: [input] });
          return offsets[0].partitions.reduce((n, p) => n + Math.max(0, Number(p.offset)), 0);
        } catch {
          return -1;
        }
      };
      const env = {
        APPLICATION_ID: ctx.applicationId,
        INPUT_TOPIC: input,
        OUTPUT_TOPIC: output,
        KAFKA_BROKERS: brokers().join(','),
        STATE_DIR: stateDir,
        DUMP_FILE: join(stateDir, 'dump.json'),
      };
      const appDir = join(stateDir, ctx.applicationId);
      const kills: string[] = [];
      let resumedFromCheckpoint = 0;
      let left = new Map<string, number>();

      /**
       * Each restart resumes every store partition right after the checkpoint left for it: no
       * wipe, no full restore (a store partition without a checkpoint is wiped and restored).
       */
      const expectResumedAfter = (checkpointed: Map<string, number>, child: Child): void => {
        const starts = restoreStarts(child.output);
        for (const [topicPartition, offset] of checkpointed) {
          const [topic, partition] = topicPartition.split(' ');
          const store = topic.slice(ctx.applicationId.length + 1, -'-changelog'.length);
          expect(child.output).not.toContain(
            `task 0_${partition}: store ${store} has no checkpoint`,
          );
          expect(child.output).not.toContain(`task 0_${partition}: closed dirty`);
          const start = starts.get(`${store} ${partition}`);
          // No RESTORE line: the checkpoint was the end of the changelog, nothing to restore.
          if (start !== undefined) {
            expect({ topicPartition, start }).toEqual({ topicPartition, start: offset + 1 });
          }
          resumedFromCheckpoint++;
        }
      };

      for (let round = 0; round < KILLS; round++) {
        // The first and last rounds die inside a commit, after some committed: the restarts
        // then always have a checkpoint to resume from (the one written after each restore).
        // The rounds between may die anywhere, the checkpoints included.
        const edge = round === 0 || round === KILLS - 1;
        const checkpointPhase = !edge && next() < 0.4;
        const phases = checkpointPhase ? CHECKPOINT_PHASES : COMMIT_PHASES;
        const phase = phases[Math.floor(next() * phases.length)];
        const at = checkpointPhase ? 1 + Math.floor(next() * 4) : 3 + Math.floor(next() * 8);
        const child = start({ ...env, KILL_PHASE: phase, KILL_AT: String(at) });
        children.push(child);
        const share = Math.floor(((round + 1) * EVENTS) / (KILLS + 1));
        const producing = produce(share);
        await waitFor(
          async () =>
            child.process.exitCode !== null ||
            child.process.signalCode !== null ||
            (produced === share && (await committed()) === produced),
          120_000,
          () =>
            `round ${round}: a kill at ${phase} #${at} or the end of the input (${child.output})`,
        );
        if (child.process.signalCode === null && child.process.exitCode === null) {
          child.process.kill('SIGKILL'); // the input ran out first: a kill between commits
        }
        expect(await exited(child)).toBe('SIGKILL');
        await producing;
        if (round > 0) expectResumedAfter(left, child);
        const killedAt = /^KILLING (\S+) (\d+)$/m.exec(child.output);
        kills.push(killedAt ? `${killedAt[1]}#${killedAt[2]}` : 'between commits');
        left = checkpoints(appDir);
        if (process.env.DEBUG_CRASH) {
          process.stderr.write(
            `round ${round} ${phase}#${at}: ${JSON.stringify([...left])}\n${child.output}\n`,
          );
        }
      }

      await produce(EVENTS);
      await producer.disconnect();
      const last = start(env);
      children.push(last);
      await waitFor(
        async () => (await committed()) === EVENTS && /STATE RUNNING/.test(last.output),
        180_000,
        () => `the whole input committed (${last.output})`,
      );
      expectResumedAfter(left, last);
      last.process.kill('SIGTERM');
      expect(await exited(last)).toBe(0);

      const dump = JSON.parse(readFileSync(env.DUMP_FILE, 'utf8')) as {
        stats: Record<string, { count: number; sum: number }>;
        windowed: Record<string, number>;
      };
      expect(dump.stats).toEqual(Object.fromEntries(stats));
      expect(dump.windowed).toEqual(Object.fromEntries(windowed));
      // Some kill left checkpoints behind: the restarts above did resume from them.
      expect(resumedFromCheckpoint).toBeGreaterThan(0);
      recordFigures('commit-crash', {
        seed: SEED,
        events: EVENTS,
        partitions: PARTITIONS,
        kills,
        storePartitionsResumedFromCheckpoint: resumedFromCheckpoint,
        wallSeconds: Math.round((Date.now() - started) / 1000),
      });
    },
    sized({ reduced: 900_000, full: 1_800_000 }),
  );
});

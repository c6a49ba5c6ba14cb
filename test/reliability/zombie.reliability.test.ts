import { brokers, KafkaTestContext } from '../support/kafka-test-context';
import { waitFor } from '../cluster/cluster-harness';
import { streamsClient } from '../support/streams-client';
import { ChaosCommittedOffsets } from './support/chaos-committed-offsets';
import { ChaosEventFeed } from './support/chaos-event-feed';
import { readChangelogLastValues } from './support/changelog-last-values';
import { assignmentAgreed, ownTasks } from './support/cluster-tasks';
import { TransactionStateProbe } from './support/transaction-state-probe';
import { OrderStatsCluster } from './support/order-stats-cluster';
import { checkFinalState, waitCaughtUp, type FinalCheck } from './support/query-final-check';
import { recordFigures } from './support/reliability-report';
import { reliabilitySize, sized } from './support/reliability-size';
import { freezeZombie, type FreezeMoment, type FreezeOutcome } from './support/zombie-freeze';

/**
 * Reduced: one freeze between two transactions, 9,000 events at 200/s (45 s of input: about 6 s
 * before the freeze, 18 s or more frozen, the rest after it), 75–100 s in all. Full: three
 * freezes (between transactions, inside one, between again), a different instance each time,
 * 90,000 events at 600/s.
 */
const EVENTS = sized({ reduced: 9_000, full: 90_000 });
const RATE = sized({ reduced: 200, full: 600 });
const USERS = sized({ reduced: 200, full: 2_000 });
const MOMENTS = sized<FreezeMoment[]>({
  reduced: ['between-transactions'],
  full: ['between-transactions', 'inside-transaction', 'between-transactions'],
});
/** Input flowing to a settled group before each freeze. */
const RUN_BEFORE_FREEZE_MS = sized({ reduced: 6_000, full: 15_000 });
/** How long an instance stays frozen at least: well past the app's 10 s session timeout. */
const FREEZE_MS = 18_000;
/** Resumed then even if the others have not taken its tasks over (the test then fails). */
const MAX_FREEZE_MS = 45_000;
const PARTITIONS = 6;
const INSTANCES = 3;
const COMMIT_INTERVAL_MS = 100;
/** The line a stream thread logs when it learns its tasks moved (stream-thread.ts). */
const MIGRATED = 'tasks migrated (';
const SEED = Number(process.env.CHAOS_SEED ?? Date.now() % 1_000_000);

/** One freeze of an instance and what followed, as reported. */
interface Freeze extends Omit<FreezeOutcome, 'seat' | 'resumedAt' | 'outputMark'> {
  readonly seat: number;
  /** Events produced after the input, held from SIGCONT until the group settled, flowed on. */
  readonly eventsAfterRelease: number;
  /** MIGRATED lines the resumed instance logged after SIGCONT. */
  readonly migratedLines: number;
  /** Why the first of them says the tasks migrated (the fencing error). */
  readonly migratedBecause: string | undefined;
  /**
   * From SIGCONT until every instance agreed on one generation giving the resumed one tasks;
   * the input is held meanwhile.
   */
  readonly runningWithTasksAfterMs: number;
  /** Its active and standby (warm-up) partitions then. */
  readonly tasksAfter: SeatTasks;
}

interface RunResult {
  readonly freezes: Freeze[];
  readonly final: FinalCheck;
  readonly changelogMismatches: string[];
  readonly changelogRecords: number;
  readonly offsetRegressions: readonly string[];
  /** State and own tasks of every frozen seat at the end. */
  readonly frozenSeatsAtEnd: ({ seat: number } & SeatTasks)[];
  readonly wallSeconds: number;
}

/** Every user's last value in the `stats-store` changelog against the truth. */
function changelogMismatches(
  values: ReadonlyMap<string, { count: number; sum: number }>,
  feed: ChaosEventFeed,
): string[] {
  const mismatches: string[] = [];
  for (const userId of feed.users()) {
    const truth = feed.finalOf(userId);
    const value = values.get(userId);
    if (value?.count !== truth.count || Math.round(value.sum * 100) !== truth.cents) {
      mismatches.push(
        `changelog ${userId}: ${JSON.stringify(value)} vs truth {${truth.count}, ${truth.cents / 100}}`,
      );
    }
  }
  if (values.size !== feed.users().length) {
    mismatches.push(`changelog: ${values.size} keys for ${feed.users().length} users`);
  }
  return mismatches;
}

/** A seat's state and its own tasks, as it sees them. */
type SeatTasks = Awaited<ReturnType<typeof ownTasks>>;

/** RUNNING with active tasks or warm-up (standby) replicas. */
const hasTasks = (t: SeatTasks): boolean =>
  t.state === 'RUNNING' && t.active.length + t.standby.length > 0;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/** Why waiting for the cluster is in vain (a process exited, ERROR), or undefined. */
function healthProblem(cluster: OrderStatsCluster): string | undefined {
  try {
    cluster.assertHealthy();
    return undefined;
  } catch (error) {
    return String(error);
  }
}

/** Lines of `text` that contain `needle`, without colours. */
const linesWith = (text: string, needle: string): string[] =>
  text
    .split('\n')
    .filter((line) => line.includes(needle))
    // eslint-disable-next-line no-control-regex
    .map((line) => line.replace(/\x1b\[[0-9;]*m/g, ''));

/** The engine's warnings (and errors) in `output`, for the run's log. */
const engineWarnings = (output: string): string[] =>
  linesWith(output, '[KafkaStreams]').filter((l) => / (WARN|ERROR) /.test(l));

/**
 * Three exactly-once instances consume seeded events at a steady rate; an instance owning
 * tasks is frozen with SIGSTOP mid-stream for longer than the session timeout, so the group
 * gives its tasks to the others while the input keeps flowing, then let run on with SIGCONT:
 * a zombie with processed, uncommitted records of a stale generation. The input is held until
 * the group settled with the zombie back in it (so that nothing commits over a stale commit
 * meanwhile), then flows to the end. Afterwards: every user read through the instances, and
 * the changelog's last values, against the truth; the input's committed offsets never went
 * back (a zombie's commit would move them back).
 */
async function zombieRun(): Promise<RunResult> {
  const started = Date.now();
  const ctx = new KafkaTestContext();
  let cluster: OrderStatsCluster | undefined;
  let committed: ChaosCommittedOffsets | undefined;
  const producing = new AbortController();
  let feeding: Promise<void> | undefined;
  let closeProbe: (() => Promise<void>) | undefined;
  const phases: string[] = [];
  const phase = (name: string): void => {
    phases.push(`${name} ${((Date.now() - started) / 1000).toFixed(1)}s`);
  };
  try {
    const topic = await ctx.createTopic(ctx.topicName('orders'), PARTITIONS);
    cluster = await OrderStatsCluster.start(INSTANCES, {
      KAFKA_BROKERS: brokers().join(','),
      APPLICATION_ID: ctx.applicationId,
      INPUT_TOPIC: topic,
      NUM_STANDBY_REPLICAS: '0',
      PROCESSING_GUARANTEE: 'exactly_once_v2',
      COMMIT_INTERVAL_MS: String(COMMIT_INTERVAL_MS),
    });
    const live = cluster;
    await waitFor(() => live.allReady(), 180_000, 'every instance ready');
    phase('ready');

    const feed = new ChaosEventFeed(ctx.kafka, {
      topic,
      partitions: PARTITIONS,
      users: USERS,
      seed: SEED,
      events: EVENTS,
      rate: RATE,
    });
    committed = new ChaosCommittedOffsets(await ctx.admin(), ctx.applicationId, topic, 100);
    committed.start();
    feeding = feed.run(producing.signal);

    const probe = new TransactionStateProbe(brokers());
    closeProbe = () => probe.close();
    const freezes: Freeze[] = [];
    const frozenSeats = new Set<number>();
    let settledAt = Date.now();
    for (const moment of MOMENTS) {
      await sleep(settledAt + RUN_BEFORE_FREEZE_MS - Date.now());
      await waitFor(() => live.allReady(), 120_000, 'every instance RUNNING before a freeze');
      const frozen = await freezeZombie(live, probe, {
        moment,
        applicationId: ctx.applicationId,
        partitions: PARTITIONS,
        minFrozenMs: FREEZE_MS,
        maxFrozenMs: MAX_FREEZE_MS,
        avoid: frozenSeats,
        // While the zombie returns, the others have nothing new to commit over what it might
        // commit (its offsets would stay moved back until the group settled, its values would
        // be the base its tasks' next owners restore).
        beforeResume: () => feed.hold(),
      });
      const { seat, resumedAt, outputMark, ...figures } = frozen;
      frozenSeats.add(seat.index);
      phase(`froze seat ${seat.index} ${moment} (${frozen.attempts}), resumed`);
      await waitFor(
        async () =>
          (await assignmentAgreed(live, PARTITIONS)) && hasTasks(await ownTasks(live, seat)),
        120_000,
        `resumed seat ${seat.index} RUNNING with tasks`,
        { abortIf: () => healthProblem(live) },
      );
      settledAt = Date.now();
      feed.release();
      const dispatchedAtRelease = feed.dispatched;
      phase(`seat ${seat.index} running with tasks`);
      const afterResume = seat.instance.output.slice(outputMark);
      const migrated = linesWith(afterResume, MIGRATED);
      process.stdout.write(
        `[zombie] seat ${seat.index} after SIGCONT:\n${engineWarnings(afterResume).join('\n')}\n`,
      );
      freezes.push({
        ...figures,
        seat: seat.index,
        eventsAfterRelease: EVENTS - dispatchedAtRelease,
        migratedLines: migrated.length,
        migratedBecause: /tasks migrated \((.*)\); closing/.exec(migrated[0] ?? '')?.[1],
        runningWithTasksAfterMs: settledAt - resumedAt,
        tasksAfter: await ownTasks(live, seat),
      });
    }
    await feeding;
    phase('produced');
    await waitCaughtUp(cluster, await ctx.admin(), ctx.applicationId, topic, 180_000);
    phase('caught up');
    await committed.stop();
    const final = await checkFinalState(cluster, feed, 'exactly_once_v2');
    const changelog = await readChangelogLastValues<{ count: number; sum: number }>(
      ctx.kafka,
      `${ctx.applicationId}-stats-store-changelog`,
    );
    const changelogWrong = changelogMismatches(changelog.values, feed);
    const frozenSeatsAtEnd = await Promise.all(
      [...frozenSeats].map(async (index) => ({
        seat: index,
        ...(await ownTasks(live, live.seats[index])),
      })),
    );
    phase('checked');
    const wrong = final.mismatches.length + changelogWrong.length;
    if (wrong > 0 || committed.regressions.length > 0) {
      process.stdout.write(`[zombie] seed ${SEED}; instance output:\n${cluster.outputs()}\n`);
    }
    return {
      freezes,
      final,
      changelogMismatches: changelogWrong,
      changelogRecords: changelog.records,
      offsetRegressions: committed.regressions,
      frozenSeatsAtEnd,
      wallSeconds: Math.round((Date.now() - started) / 100) / 10,
    };
  } catch (error) {
    if (cluster) process.stdout.write(`[zombie] seed ${SEED}:\n${cluster.outputs()}\n`);
    throw error;
  } finally {
    producing.abort();
    await feeding?.catch(() => undefined);
    await committed?.stop();
    await closeProbe?.().catch(() => undefined);
    await cluster?.close();
    await ctx.cleanup();
    phase('closed');
    process.stdout.write(`[zombie] ${streamsClient()}: ${phases.join(', ')}\n`);
  }
}

describe('zombie: an instance frozen past its session timeout comes back with a stale generation', () => {
  it(`exactly_once_v2 (${streamsClient()}): the zombie is fenced, commits nothing, rejoins; every count and sum exact`, async () => {
    const result = await zombieRun();
    recordFigures(`zombie-${streamsClient().replace(/^@/, '').replace(/\W+/g, '-')}`, {
      seed: SEED,
      client: streamsClient(),
      events: EVENTS,
      users: USERS,
      ratePerSec: RATE,
      instances: INSTANCES,
      commitIntervalMs: COMMIT_INTERVAL_MS,
      freezes: result.freezes,
      countedEvents: result.final.countedEvents,
      finalMismatches: result.final.mismatches.length,
      changelogRecords: result.changelogRecords,
      changelogMismatches: result.changelogMismatches.length,
      offsetRegressions: result.offsetRegressions,
      frozenSeatsAtEnd: result.frozenSeatsAtEnd,
      wallSeconds: result.wallSeconds,
    });
    expect(result.final.mismatches).toEqual([]);
    expect(result.final.countedEvents).toBe(EVENTS);
    expect(result.final.duplicates).toBe(0);
    expect(result.changelogMismatches).toEqual([]);
    expect(result.offsetRegressions).toEqual([]);
    expect(result.freezes.map((f) => f.moment)).toEqual(MOMENTS);
    for (const freeze of result.freezes) {
      expect(freeze.tasksMovedAfterMs).not.toBeNull();
      expect(freeze.frozenMs).toBeGreaterThanOrEqual(FREEZE_MS);
      expect(freeze.eventsAfterRelease).toBeGreaterThan(0);
      expect(freeze.migratedLines).toBeGreaterThanOrEqual(1);
      expect(hasTasks(freeze.tasksAfter)).toBe(true);
    }
    for (const end of result.frozenSeatsAtEnd) {
      expect(end.state).toBe('RUNNING');
      // Reduced, its tasks' changelogs hold fewer than acceptable.recovery.lag (10,000 records),
      // so the assignor gives it active tasks at once. Full, its wiped stores may lag more: it
      // then gets warm-up replicas, active tasks once they caught up (a probing rebalance).
      if (reliabilitySize() === 'reduced') expect(end.active.length).toBeGreaterThan(0);
      else expect(hasTasks(end)).toBe(true);
    }
  });
});

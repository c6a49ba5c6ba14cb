import { brokers, KafkaTestContext } from '../support/kafka-test-context';
import { waitFor } from '../cluster/cluster-harness';
import { ChaosCommittedOffsets } from './support/chaos-committed-offsets';
import { ChaosDriver } from './support/chaos-driver';
import { ChaosEventFeed } from './support/chaos-event-feed';
import { OrderStatsCluster } from './support/order-stats-cluster';
import { QueryChecker, type QueryTally } from './support/query-checker';
import { checkFinalState, waitCaughtUp, type FinalCheck } from './support/query-final-check';
import type { Guarantee } from './support/query-rules';
import { recordFigures } from './support/reliability-report';
import { sized } from './support/reliability-size';

/**
 * Events per run: 200,000 at full size (about 13 kills at 1,000 events/s); reduced so that the
 * events flow through both kills (10–20 s apart, from the first one 10–20 s in) and the file
 * runs in about 3 minutes.
 */
const EVENTS = sized({ reduced: 9_000, full: 200_000 });
const RATE = sized({ reduced: 200, full: 1_000 });
const USERS = sized({ reduced: 200, full: 2_000 });
const MIN_KILLS = sized({ reduced: 2, full: 5 });
const PARTITIONS = 6;
const INSTANCES = 3;
/** Seed of the events, victims, intervals and queries; `CHAOS_SEED` replays a run. */
const SEED = Number(process.env.CHAOS_SEED ?? Date.now() % 1_000_000);

interface RunSettings {
  readonly guarantee: Guarantee;
  readonly standbys: number;
  readonly commitIntervalMs: number;
}

interface RunResult {
  readonly final: FinalCheck;
  readonly kills: number;
  readonly restarts: number;
  readonly tally: QueryTally;
  readonly availability: number;
  readonly answered: number;
  readonly failures: string[];
  readonly wallSeconds: number;
  /** Recoveries the instances logged: tasks migrated (fenced), commits refused by a rebalance. */
  readonly recoveries: { tasksMigrated: number; commitsRefusedByRebalance: number };
}

/**
 * One crash loop: three order-stats instances (one application id, a state dir each) consume
 * seeded events produced at a steady rate while the chaos driver SIGKILLs a random instance
 * every 10–20 s and restarts it on the same ports and state dir, and the query checker reads
 * random users through random live instances. After the last restart, once every instance is
 * ready and the committed offsets reach the end of the input, every user is read back.
 */
async function crashLoop(settings: RunSettings): Promise<RunResult> {
  const started = Date.now();
  const ctx = new KafkaTestContext();
  let cluster: OrderStatsCluster | undefined;
  let checker: QueryChecker | undefined;
  let committed: ChaosCommittedOffsets | undefined;
  let driver: ChaosDriver | undefined;
  let driving: Promise<void> | undefined;
  const producing = new AbortController();
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
      NUM_STANDBY_REPLICAS: String(settings.standbys),
      PROCESSING_GUARANTEE: settings.guarantee,
      COMMIT_INTERVAL_MS: String(settings.commitIntervalMs),
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
    committed = new ChaosCommittedOffsets(await ctx.admin(), ctx.applicationId, topic);
    committed.start();
    checker = new QueryChecker(cluster, feed, committed, {
      guarantee: settings.guarantee,
      seed: SEED + 1,
      concurrency: 3,
      pauseMs: 20,
      rangeEvery: 25,
    });
    checker.start();
    driver = new ChaosDriver(cluster, {
      seed: SEED + 2,
      minIntervalMs: 10_000,
      maxIntervalMs: 20_000,
      downtimeMs: 1_000,
    });
    driving = driver.run(MIN_KILLS);
    await feed.run(producing.signal);
    phase('produced');
    driver.stop();
    await driving;
    phase('last restart');
    await waitCaughtUp(cluster, await ctx.admin(), ctx.applicationId, topic, 180_000);
    phase('caught up');
    await checker.stop();
    await committed.stop();
    const final = await checkFinalState(cluster, feed, settings.guarantee);
    phase('checked');
    if (final.mismatches.length > 0 || checker.failures.length > 0) {
      process.stdout.write(`[crash-loop] seed ${SEED}; instance output:\n${cluster.outputs()}\n`);
    }
    return {
      final,
      kills: driver.kills,
      restarts: driver.restarts,
      tally: checker.tally,
      availability: checker.availability,
      answered: checker.answered,
      failures: checker.failures,
      wallSeconds: Math.round((Date.now() - started) / 100) / 10,
      recoveries: {
        tasksMigrated: cluster.countInOutputs('tasks migrated ('),
        commitsRefusedByRebalance: cluster.countInOutputs('commit refused by a rebalance'),
      },
    };
  } catch (error) {
    if (cluster) process.stdout.write(`[crash-loop] seed ${SEED}:\n${cluster.outputs()}\n`);
    throw error;
  } finally {
    producing.abort();
    driver?.stop();
    await driving?.catch(() => undefined);
    await checker?.stop();
    await committed?.stop();
    await cluster?.close();
    await ctx.cleanup();
    phase('closed');
    process.stdout.write(
      `[crash-loop] ${settings.guarantee}/${settings.standbys}: ${phases.join(', ')}\n`,
    );
  }
}

function figuresOf(result: RunResult, settings: RunSettings): Record<string, unknown> {
  return {
    seed: SEED,
    events: EVENTS,
    users: USERS,
    ratePerSec: RATE,
    instances: INSTANCES,
    standbys: settings.standbys,
    commitIntervalMs: settings.commitIntervalMs,
    kills: result.kills,
    restarts: result.restarts,
    countedEvents: result.final.countedEvents,
    duplicates: result.final.duplicates,
    duplicateRatio: Number((result.final.duplicates / EVENTS).toFixed(5)),
    finalMismatches: result.final.mismatches.length,
    answers: result.tally,
    availability: Number(result.availability.toFixed(4)),
    answered: Number(result.answered.toFixed(4)),
    recoveries: result.recoveries,
    wallSeconds: result.wallSeconds,
  };
}

describe('crash loop: SIGKILL and restart an instance every 10–20 s while events flow', () => {
  const results = new Map<string, RunResult>();

  afterAll(() => {
    const withStandby = [...results.entries()].filter(([k]) => k !== 'eos-no-standby');
    const without = results.get('eos-no-standby');
    if (withStandby.length === 0 && !without) return;
    const sum = (key: Exclude<keyof QueryTally, 'unavailableReasons'>, list: RunResult[]): number =>
      list.reduce((n, r) => n + r.tally[key], 0);
    const standbyRuns = withStandby.map(([, r]) => r);
    const share = (list: RunResult[]): number => {
      const answers = sum('keyAnswers', list);
      const ok = sum('activeOk', list) + sum('staleOk', list);
      return answers === 0 ? 0 : Number((ok / answers).toFixed(4));
    };
    recordFigures('queries-under-chaos', {
      seed: SEED,
      runs: [...results.keys()],
      answersByRun: Object.fromEntries([...results].map(([k, r]) => [k, r.tally])),
      availabilityWithStandbys: share(standbyRuns),
      availabilityWithoutStandbys: without ? share([without]) : null,
      staleAnswersWithStandbys: sum('staleOk', standbyRuns),
      failures: [...results.values()].reduce((n, r) => n + r.tally.failures, 0),
      connectionErrorsToKilledInstances: [...results.values()].reduce(
        (n, r) => n + r.tally.connectionErrorsKilled,
        0,
      ),
      wallSeconds: [...results.values()].reduce((n, r) => n + r.wallSeconds, 0),
    });
  });

  it('exactly_once_v2 (commit every 100 ms, one standby): every count and sum is exact, every answer sound', async () => {
    const settings: RunSettings = {
      guarantee: 'exactly_once_v2',
      standbys: 1,
      commitIntervalMs: 100,
    };
    const result = await crashLoop(settings);
    results.set('eos', result);
    recordFigures('crash-loop-eos', figuresOf(result, settings));
    expect(result.final.mismatches).toEqual([]);
    expect(result.final.duplicates).toBe(0);
    expect(result.final.countedEvents).toBe(EVENTS);
    expect(result.failures).toEqual([]);
    expect(result.kills).toBeGreaterThanOrEqual(MIN_KILLS);
    expect(result.restarts).toBe(result.kills);
    expect(result.tally.activeOk).toBeGreaterThan(0);
    expect(result.tally.activeAboveCommitted).toBeGreaterThan(0);
    // #18's bar: a restarted instance routes by the group's host map, owners without an active
    // copy fall back to a standby (0.985 kafkajs, 0.987 platformatic here; 0.74–0.94 before).
    expect(result.availability).toBeGreaterThanOrEqual(0.9);
  });

  it('at_least_once (one standby): no update is lost, duplicates are measured', async () => {
    const settings: RunSettings = {
      guarantee: 'at_least_once',
      standbys: 1,
      commitIntervalMs: 1_000,
    };
    const result = await crashLoop(settings);
    results.set('alos', result);
    recordFigures('crash-loop-alos', figuresOf(result, settings));
    expect(result.final.mismatches).toEqual([]);
    expect(result.final.duplicates).toBeGreaterThanOrEqual(0);
    expect(result.failures).toEqual([]);
    expect(result.kills).toBeGreaterThanOrEqual(MIN_KILLS);
    expect(result.restarts).toBe(result.kills);
    expect(result.tally.activeOk).toBeGreaterThan(0);
    expect(result.availability).toBeGreaterThanOrEqual(0.9);
  });

  it('exactly_once_v2 without standbys: exact, and the availability of queries without a standby', async () => {
    const settings: RunSettings = {
      guarantee: 'exactly_once_v2',
      standbys: 0,
      commitIntervalMs: 100,
    };
    const result = await crashLoop(settings);
    results.set('eos-no-standby', result);
    recordFigures('crash-loop-eos-no-standby', figuresOf(result, settings));
    expect(result.final.mismatches).toEqual([]);
    expect(result.final.duplicates).toBe(0);
    expect(result.failures).toEqual([]);
    // Marked stale answers may still come from warm-up replicas (standby copies the assignor
    // places for a task it moves); they are judged like any standby answer.
    expect(result.kills).toBeGreaterThanOrEqual(MIN_KILLS);
  });
});

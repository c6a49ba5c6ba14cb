import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Admin } from 'kafkajs';
import type { KafkaClientName } from '@nest-streams/streams';
import type { KafkaCluster } from '../../support/kafka-cluster';
import { JAVA_STATS_CLIENT, javaStatsStarter } from '../../../tools/instances/java-stats-instance';
import { randomSuffix, waitForTopicLeaders } from '../../support/kafka-test-context';
import { waitFor } from '../../support/wait-for';
import { ChaosCommittedOffsets } from './chaos-committed-offsets';
import { ChaosEventFeed } from './chaos-event-feed';
import { OrderStatsCluster } from './order-stats-cluster';
import { QueryChecker } from './query-checker';
import type { Guarantee } from './query-rules';

/** How the applications of one row of the matrix talk to Kafka. */
export interface ClientSetup {
  /** The engine's Kafka client, or Java Kafka Streams running the same application instead. */
  readonly client: KafkaClientName | typeof JAVA_STATS_CLIENT;
  readonly groupProtocol: 'classic' | 'streams';
  /** Classic protocol only: `REBALANCE_PROTOCOL`; unset, the client's default. */
  readonly rebalanceProtocol?: 'cooperative' | 'eager';
}

/** One application of the fixture: its id, guarantee, instances and checkers. */
export interface FaultApp {
  readonly applicationId: string;
  readonly guarantee: Guarantee;
  readonly cluster: OrderStatsCluster;
  readonly committed: ChaosCommittedOffsets;
  readonly checker: QueryChecker;
}

/** Sizes of a fixture. */
export interface FixtureSize {
  readonly users: number;
  readonly rate: number;
  /** Events the feed can produce in all (every phase of the fixture's life). */
  readonly events: number;
  readonly seed: number;
}

/** The first time an instance of an application exited or reached ERROR, with what it said. */
export interface HealthFailure {
  readonly at: number;
  /** Which seat and what happened, then the last lines of its output. */
  readonly message: string;
}

export const PARTITIONS = 6;
/** Instances per application; each task has one standby (`NUM_STANDBY_REPLICAS=1`). */
export const INSTANCES = 2;

/**
 * Two order-stats applications on a {@link KafkaCluster}, reading one input topic (6
 * partitions, replicated 3 times): one under exactly_once_v2, one under at_least_once, each with
 * two instances and one standby, on one client and group protocol. A seeded feed produces when
 * released ({@link ChaosEventFeed.release}); a query checker per application judges every answer
 * from start to end; a watcher notes the first instance that exits or reaches ERROR. Both
 * application ids hash to the same `__consumer_offsets` partition: one node coordinates both
 * groups, whatever moves.
 */
export class ClusterFaultFixture {
  /** The first exit or ERROR of an instance, per application id. */
  readonly healthFailures = new Map<string, HealthFailure>();
  /** Why the feed stopped, if it failed. */
  feedError: unknown;
  private readonly watcher: NodeJS.Timeout;
  private readonly producing = new AbortController();
  private readonly feeding: Promise<void>;

  private constructor(
    readonly kafka: KafkaCluster,
    readonly setup: ClientSetup,
    readonly topic: string,
    readonly feed: ChaosEventFeed,
    readonly apps: readonly FaultApp[],
    readonly admin: Admin,
  ) {
    this.watcher = setInterval(() => this.watch(), 500);
    feed.hold();
    this.feeding = feed.run(this.producing.signal).catch((error: unknown) => {
      this.feedError = error;
    });
  }

  /**
   * Creates the topic, starts both applications and waits until every instance is ready, then
   * starts the checkers; the feed is held.
   */
  static async start(
    kafka: KafkaCluster,
    setup: ClientSetup,
    size: FixtureSize,
  ): Promise<ClusterFaultFixture> {
    const client = kafka.kafka(`cluster-faults-${randomSuffix()}`);
    const admin = client.admin();
    await admin.connect();
    const topic = `test-cluster-faults-${randomSuffix()}`;
    await admin.createTopics({
      topics: [{ topic, numPartitions: PARTITIONS, replicationFactor: -1 }],
      waitForLeaders: false,
    });
    await waitForTopicLeaders(admin, topic, PARTITIONS);
    const eosId = `test-app-eos-${randomSuffix()}`;
    const alosId = sameOffsetsPartition(eosId, 'test-app-alos');
    const clusters: OrderStatsCluster[] = [];
    try {
      for (const [applicationId, guarantee] of [
        [eosId, 'exactly_once_v2'],
        [alosId, 'at_least_once'],
      ] as const) {
        clusters.push(
          await startApplication(setup, {
            KAFKA_BROKERS: kafka.brokers.join(','),
            APPLICATION_ID: applicationId,
            INPUT_TOPIC: topic,
            NUM_STANDBY_REPLICAS: '1',
            PROCESSING_GUARANTEE: guarantee,
            COMMIT_INTERVAL_MS: guarantee === 'exactly_once_v2' ? '100' : '200',
            KAFKA_CLIENT: setup.client,
            GROUP_PROTOCOL: setup.groupProtocol,
            ...(setup.rebalanceProtocol ? { REBALANCE_PROTOCOL: setup.rebalanceProtocol } : {}),
          }),
        );
      }
      await waitFor(
        async () => (await Promise.all(clusters.map((c) => c.allReady()))).every(Boolean),
        240_000,
        'every instance of both applications ready',
        {
          // An instance that exited or reached ERROR will not become ready: say so at once.
          abortIf: () => {
            try {
              clusters.forEach((c) => c.assertHealthy());
              return undefined;
            } catch (error) {
              return brief(error);
            }
          },
          context: () => clusters.map((c) => c.outputs()).join('\n'),
        },
      );
    } catch (error) {
      await Promise.all(clusters.map((c) => c.close()));
      await admin.disconnect();
      throw error;
    }
    const feed = new ChaosEventFeed(client, {
      topic,
      partitions: PARTITIONS,
      users: size.users,
      seed: size.seed,
      events: size.events,
      rate: size.rate,
    });
    const apps = clusters.map((cluster, i): FaultApp => {
      const applicationId = i === 0 ? eosId : alosId;
      const guarantee: Guarantee = i === 0 ? 'exactly_once_v2' : 'at_least_once';
      const committed = new ChaosCommittedOffsets(admin, applicationId, topic);
      committed.start();
      const checker = new QueryChecker(cluster, feed, committed, {
        guarantee,
        seed: size.seed + 1 + i,
        concurrency: 2,
        pauseMs: 50,
        rangeEvery: 25,
      });
      checker.start();
      return { applicationId, guarantee, cluster, committed, checker };
    });
    return new ClusterFaultFixture(kafka, setup, topic, feed, apps, admin);
  }

  /** True while no instance exited or reached ERROR and the feed did not fail. */
  get healthy(): boolean {
    this.watch();
    return this.healthFailures.size === 0 && this.feedError === undefined;
  }

  /** The application's first instance exit or ERROR, if any. */
  failureOf(app: FaultApp): HealthFailure | undefined {
    this.watch();
    return this.healthFailures.get(app.applicationId);
  }

  /** The exactly-once application. */
  get eos(): FaultApp {
    return this.apps[0];
  }

  /** The at-least-once application. */
  get alos(): FaultApp {
    return this.apps[1];
  }

  /**
   * Throws when the feed failed or every application broke: a phase has nothing left to watch
   * (one broken application leaves the other one to measure).
   */
  assertFeeding(): void {
    this.watch();
    if (this.feedError !== undefined) throw new Error(`the feed failed: ${String(this.feedError)}`);
    if (this.healthFailures.size === this.apps.length) {
      throw new Error(`every application broke: ${[...this.healthFailures.values()][0].message}`);
    }
  }

  /** Writes every instance's output to `dir` as `<label>-<app>-seat<i>.log`. */
  dumpOutputs(dir: string, label: string): void {
    for (const app of this.apps) {
      const name = app.guarantee === 'exactly_once_v2' ? 'eos' : 'alos';
      app.cluster.seats.forEach((seat) =>
        writeFileSync(
          join(dir, `${label}-${name}-seat${seat.index}.log`),
          [...seat.pastOutput, seat.instance.output].join('\n--- restart ---\n'),
        ),
      );
    }
  }

  /** Stops the feed, the checkers, every instance; deletes nothing on the cluster. */
  async close(): Promise<void> {
    clearInterval(this.watcher);
    this.producing.abort();
    this.feed.release();
    await this.feeding;
    for (const app of this.apps) {
      await app.checker.stop();
      await app.committed.stop();
    }
    await Promise.all(this.apps.map((a) => a.cluster.close()));
    await this.admin.disconnect().catch(() => undefined);
  }

  private watch(): void {
    for (const app of this.apps) {
      if (!this.healthFailures.has(app.applicationId)) {
        try {
          app.cluster.assertHealthy();
        } catch (error) {
          this.healthFailures.set(app.applicationId, { at: Date.now(), message: brief(error) });
        }
      }
      // A process that exited on its own takes no more queries once its exit is recorded: the
      // connections it refuses afterwards are not wrong answers of their own.
      for (const seat of app.cluster.seats) if (!seat.instance.alive) seat.alive = false;
    }
  }
}

/** Starts one application's instances: the example application, or Java's on its row. */
function startApplication(
  setup: ClientSetup,
  env: Record<string, string>,
): Promise<OrderStatsCluster> {
  const starter = setup.client === JAVA_STATS_CLIENT ? javaStatsStarter() : undefined;
  return OrderStatsCluster.start(INSTANCES, env, undefined, starter);
}

/**
 * An application id starting with `prefix` whose group lives in the same `__consumer_offsets`
 * partition as `groupId`'s (Kafka: `abs(groupId.hashCode()) % offsets.topic.num.partitions`,
 * 10 on the project's brokers), so that both groups have one coordinator.
 */
export function sameOffsetsPartition(groupId: string, prefix: string, partitions = 10): string {
  const target = offsetsPartition(groupId, partitions);
  for (;;) {
    const candidate = `${prefix}-${randomSuffix()}`;
    if (offsetsPartition(candidate, partitions) === target) return candidate;
  }
}

/** Java's `String.hashCode()` of `id`, made non-negative by Kafka's `Utils.abs`, modulo `n`. */
export function offsetsPartition(id: string, n: number): number {
  let hash = 0;
  for (let i = 0; i < id.length; i++) hash = (Math.imul(31, hash) + id.charCodeAt(i)) | 0;
  return (hash === -2147483648 ? 0 : Math.abs(hash)) % n;
}

/** The terminal colour codes of Nest's logger. */
const ANSI_COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/** An instance failure's first line and its last warnings and errors, without colours. */
function brief(error: unknown): string {
  const lines = String(error).replace(ANSI_COLOUR, '').split('\n');
  // The warnings, errors and state changes, without the retry a dead broker repeats every second.
  const tail = lines
    .slice(1)
    .filter((l) => /WARN|ERROR|STATE/.test(l) && !l.includes('standby changelog read failed'));
  return [lines[0], ...tail.slice(-8)].join('\n');
}

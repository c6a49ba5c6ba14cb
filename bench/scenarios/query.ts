import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EventData } from '../harness/event-data';
import { formatQueryTable, queryBars } from '../harness/figure-tables';
import { selectedEngines } from '../harness/kafka-clients';
import { seededRandom } from '../harness/seeded-random';
import type { SystemRow } from '../harness/system-row';
import { aggregateTruth, writeTruth } from '../harness/truth';
import { runNestBaselines } from '../systems/nest-baseline';
import { runQueryPeer } from '../systems/query-peers';
import type { Scenario } from './scenario';
import { APP, APP_CLIENT, runAppPhases } from './query-app';

const FIVE_MINUTES = 5 * 60_000;
/** Users whose `GET /stats/:userId` the HTTP loads cycle through. */
const HTTP_USERS = 50_000;
/** Distinct range requests the scatter-gather load cycles through. */
const RANGES = 200;

/**
 * The example application's rows run on the engine's default client (`ours`) only: what the
 * table says for kafkajs.
 */
const APP_NOT_ON_KAFKAJS: SystemRow = {
  system: 'order-stats (example application) on kafkajs',
  role: 'ours',
  compareKey: 'http-bare',
  client: 'kafkajs',
  note: 'not measured: the application rows run on the default client, @platformatic/kafka (KAFKA_CLIENT=kafkajs would switch them; the in-process and bare rows compare the clients)',
};

/**
 * `query`: reads of a filled `stats-store` (the aggregate of the generated events).
 * 1. The example application (apps/order-stats): scatter-gather ranges on 3 instances, local
 *    and forwarded `GET /stats/:userId` on 2, local on 1 (autocannon, every answer checked).
 * 2. In-process reads, ours (on each selected client) and the Java peer side by side:
 *    `streams.store(...).get` and IQv2 (`KeyQuery`), timed one by one after a checked warm-up
 *    pass, then a bare `GET /stats/:userId` endpoint of each (node:http / the JDK's HttpServer)
 *    under the same autocannon load as the application.
 * The application runs on the default client only (`ours`, `KAFKA_CLIENT` set to it).
 */
export const queryScenario: Scenario = {
  name: 'query',
  description:
    'interactive queries on a filled stats-store: in-process get (KV store, IQv2), HTTP local, forwarded, scatter-gather range',
  defaults: { events: 200_000, keys: 100_000, partitions: 6 },
  presentation: {
    table: formatQueryTable,
    legend:
      'ops/s vs Java: over the Java row of the same kind (store.get, IQv2, HTTP GET of one user); p99 vs Java: above 1 is slower. load: 1-minute load average before-after.',
    chartTitle: 'p99 latency, ms (lower is better; log scale)',
    bars: queryBars,
    logScale: true,
  },
  async run(ctx) {
    const { options } = ctx;
    const events = options.events ?? this.defaults.events;
    const keys = options.keys ?? this.defaults.keys;
    const partitions = options.partitions ?? this.defaults.partitions;
    const startTimestampMs = Math.floor(Date.now() / FIVE_MINUTES) * FIVE_MINUTES - 55 * 60_000;
    ctx.log(
      `generating ${events.toLocaleString('en-US')} events over ${keys.toLocaleString('en-US')} users...`,
    );
    const data = new EventData({
      events,
      keys,
      seed: options.seed,
      startTimestampMs,
      spanMs: 50 * 60_000,
    });
    const truth = aggregateTruth(data);
    const truthFile = join(ctx.workDir, 'truth-query.tsv');
    await writeTruth(truth, truthFile);
    const users = [...truth.keys()].sort();
    const statsBody = (user: string): string => {
      const [count, sum] = truth.get(user)!.split('\t').map(Number);
      return JSON.stringify({ count, sum });
    };
    // The keys to read, drawn with the seed from the users that have stats.
    const random = seededRandom(options.seed + 1);
    const sample = Array.from(
      { length: options.gets },
      () => users[Math.floor(random() * users.length)],
    );
    const keysFile = join(ctx.workDir, 'query-keys.txt');
    writeFileSync(keysFile, `${sample.join('\n')}\n`);
    const bodies = new Map<string, string>();
    const httpUsers = sample.slice(0, HTTP_USERS);
    for (const user of httpUsers) bodies.set(`/stats/${user}`, statsBody(user));
    const rangeUsers = Math.min(options.rangeUsers, users.length);
    const rangeBodies = new Map<string, string>();
    for (let r = 0; r < RANGES; r++) {
      const from = Math.floor(random() * (users.length - rangeUsers + 1));
      const slice = users.slice(from, from + rangeUsers);
      rangeBodies.set(
        `/stats/range?from=${slice[0]}&to=${slice[slice.length - 1]}`,
        JSON.stringify(
          slice.map((userId) => {
            const [count, sum] = truth.get(userId)!.split('\t').map(Number);
            return { userId, count, sum };
          }),
        ),
      );
    }

    const topic = `${ctx.runPrefix}-input`;
    await ctx.topics.createTopic(topic, partitions);
    const rows: SystemRow[] = [];
    let produceSeconds: number | undefined;
    if (options.systems.includes('ours')) {
      try {
        const app = await runAppPhases(ctx, {
          topic,
          partitions,
          data,
          users,
          bodies,
          sample: httpUsers,
          rangeBodies,
        });
        rows.push(...app.rows);
        produceSeconds = app.produceSeconds;
      } catch (error) {
        rows.push({
          system: `${APP} (example application)`,
          role: 'ours',
          compareKey: 'http-bare',
          client: APP_CLIENT,
          failure: error instanceof Error ? error.message : String(error),
        });
      }
    }
    if (options.systems.includes('ours-kafkajs')) rows.push(APP_NOT_ON_KAFKAJS);
    if (produceSeconds === undefined && (await ctx.topics.recordCount(topic)) === 0) {
      produceSeconds = await ctx.topics.produce(topic, data);
    }
    const inTopic = await ctx.topics.recordCount(topic);
    if (inTopic !== events)
      throw new Error(`the input topic holds ${inTopic} records, expected ${events}`);
    const peerSpec = {
      inputTopic: topic,
      truthFile,
      keysFile,
      httpPaths: httpUsers.map((user) => `/stats/${user}`),
      expectedBodies: bodies,
    };
    if (options.systems.includes('java')) ctx.javaPeer();
    // The framework alone, for the application's HTTP rows (part of `ours`).
    if (options.systems.includes('ours')) rows.push(...(await runNestBaselines(ctx, peerSpec)));
    for (const engine of selectedEngines(options.systems)) {
      rows.push(...(await runQueryPeer(ctx, engine, peerSpec)));
    }
    if (options.systems.includes('java')) rows.push(...(await runQueryPeer(ctx, 'java', peerSpec)));
    return {
      rows,
      params: {
        events,
        keys,
        users: users.length,
        partitions,
        seed: options.seed,
        produceSeconds:
          produceSeconds !== undefined ? Math.round(produceSeconds * 100) / 100 : undefined,
        inProcessGets: options.gets,
        httpUsers: httpUsers.length,
        httpDurationSeconds: options.durationSeconds,
        httpConnections: options.connections,
        rangeUsers,
        rangeRequests: RANGES,
        app: `apps/order-stats via tsx (Nest, @RouteByKey, TCP forwarding), no standbys, commit interval as --commit-interval-ms, on ${APP_CLIENT} (KAFKA_CLIENT)`,
        kafkaClients:
          'in-process rows: nest-streams (kafkajs) and nest-streams (@platformatic/kafka) each process the input on their client, then read the same store; the reads do not use the client',
        bareHttp:
          'ours: node:http + store.get + JSON.stringify; Java: com.sun.net.httpserver with a pool of nproc threads + store.get + Jackson',
        javaForwardingAndRange:
          'not measured: Kafka Streams has no built-in request forwarding or scatter-gather; the application would write them',
        latencyFrom:
          'in-process: process.hrtime.bigint() / System.nanoTime() around each get; HTTP: each response timed by autocannon (process.hrtime)',
        percentiles: 'nearest rank',
      },
    };
  },
};

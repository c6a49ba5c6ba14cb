import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OrderStatsInstance } from '../../tools/instances/order-stats-instance';
import { waitFor } from '../cluster/cluster-harness';
import { randomSuffix, waitForTopicLeaders } from '../support/kafka-test-context';
import { DedicatedBroker } from './support/broker-dedicated';
import { waitWhileAlive } from './support/disk-instance-wait';
import { SteadyProducer } from './support/broker-steady-producer';
import { readTopicTruth, type TopicTruth } from './support/broker-topic-truth';
import { recordFigures } from './support/reliability-report';
import { sized } from './support/reliability-size';
import { readyAndRunning } from '../support/health';

interface Stats {
  count: number;
  sum: number;
}

const EVENTS = sized({ reduced: 3_000, full: 40_000 });
const RATE = sized({ reduced: 200, full: 500 });
const USERS = 30;
const progress = (line: string): void => {
  process.stderr.write(`[broker-restart] ${line}\n`);
};
const DOWN_SECONDS = sized({ reduced: 6, full: 15 });
/**
 * The outages, each when this share of the events has been acknowledged: a crash (SIGKILL) in
 * the reduced run; a controlled shutdown (SIGTERM) and later a crash in the full run.
 */
const OUTAGES: { signal: 'SIGTERM' | 'SIGKILL'; at: number }[] = sized({
  reduced: [{ signal: 'SIGKILL', at: 0.5 }],
  full: [
    { signal: 'SIGTERM', at: 0.3 },
    { signal: 'SIGKILL', at: 0.65 },
  ],
});

/**
 * Broker restart mid-stream (issue #9): order-stats instances under exactly-once (two) and
 * at-least-once (two) consume a steady stream from a broker of this test's own; the broker is
 * stopped (SIGTERM, then later SIGKILL), kept down, and restarted on the same port with the
 * same data while the producer keeps retrying. Without any operator action the application
 * must end with every user's count and sum equal to what the topic holds (exactly-once) or at
 * least that (at-least-once), every instance RUNNING and no process exited.
 */
describe('reliability: broker restart mid-stream', () => {
  const broker = DedicatedBroker.create();
  const instances: OrderStatsInstance[] = [];
  const dirs: string[] = [];
  let producer: SteadyProducer | undefined;
  let ticker: NodeJS.Timeout | undefined;

  afterAll(async () => {
    clearInterval(ticker);
    if (process.env.RELIABILITY_DUMP_DIR) {
      instances.forEach((i, n) =>
        writeFileSync(join(process.env.RELIABILITY_DUMP_DIR!, `broker-restart-${n}.log`), i.output),
      );
    }
    await producer?.close();
    await Promise.all(instances.map((i) => i.stop('SIGKILL')));
    await broker.destroy();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('recovers without operator action and loses nothing', async () => {
    const wallStart = Date.now();
    const brokerStartSeconds = await broker.start();
    const kafka = broker.kafka(`broker-restart-${randomSuffix()}`);
    const topic = `test-broker-restart-${randomSuffix()}`;
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({
      topics: [{ topic, numPartitions: 6, replicationFactor: 1 }],
      waitForLeaders: false,
    });
    await waitForTopicLeaders(admin, topic, 6);
    await admin.disconnect();

    const start = async (guarantee: 'exactly_once_v2' | 'at_least_once', appId: string) => {
      const dir = mkdtempSync(join(tmpdir(), 'broker-restart-state-'));
      dirs.push(dir);
      const instance = await OrderStatsInstance.start({
        KAFKA_BROKERS: broker.address,
        APPLICATION_ID: appId,
        INPUT_TOPIC: topic,
        PROCESSING_GUARANTEE: guarantee,
        COMMIT_INTERVAL_MS: '200',
        STATE_DIR: dir,
      });
      instances.push(instance);
      return instance;
    };
    const eosApp = `test-app-eos-${randomSuffix()}`;
    const alosApp = `test-app-alos-${randomSuffix()}`;
    const eos = [await start('exactly_once_v2', eosApp), await start('exactly_once_v2', eosApp)];
    const alos = [await start('at_least_once', alosApp), await start('at_least_once', alosApp)];
    await waitWhileAlive(
      instances,
      async () =>
        (await Promise.all(instances.map((i) => i.request('/health/ready')))).every(
          readyAndRunning,
        ),
      180_000,
      'all four instances ready',
    );

    producer = new SteadyProducer(kafka, {
      topic,
      events: EVENTS,
      users: USERS,
      batchSize: 50,
      rate: RATE,
    });
    const produceStart = Date.now();
    ticker = setInterval(() => {
      const p = producer!;
      progress(
        `acknowledged ${p.acknowledged}/${EVENTS}, failed attempts ${p.failedAttempts}${p.lastError ? ` (last: ${p.lastError})` : ''}`,
      );
    }, 10_000);
    const producing = producer.run(Date.now() + 600_000);
    let producerFailed: unknown;
    producing.catch((error: unknown) => (producerFailed = error));

    const outages: {
      signal: string;
      atEvent: number;
      /** From the kill until the restarted broker answered. */
      unavailableSeconds: number;
      restartSeconds: number;
    }[] = [];
    const health = new Map<string, number>();
    for (const outage of OUTAGES) {
      await waitFor(
        () => producerFailed !== undefined || producer!.acknowledged >= EVENTS * outage.at,
        300_000,
        `${outage.at * 100}% of the events acknowledged`,
      );
      expect(producerFailed).toBeUndefined();
      const atEvent = producer.acknowledged;
      await broker.kill(outage.signal);
      const downAt = Date.now();
      // Until the broker answers again: what the instances' probes say, counted per answer.
      let back = false;
      const probing = (async () => {
        while (!back) {
          for (const path of ['/health/ready', '/health/live']) {
            const r = await eos[0].request(path).catch((error: unknown) => ({
              status: -1,
              body: String(error),
            }));
            const body = r.body as { error?: { streams?: { state?: string } } };
            const key = `${path} ${r.status} ${body.error?.streams?.state ?? ''}`.trim();
            health.set(key, (health.get(key) ?? 0) + 1);
          }
          await new Promise((resolve) => setTimeout(resolve, 1000));
        }
      })();
      await new Promise((resolve) => setTimeout(resolve, DOWN_SECONDS * 1000));
      progress(`broker down (${outage.signal}) at event ${atEvent}; restarting`);
      const restartSeconds = await broker.start(true).finally(() => (back = true));
      await probing;
      progress(`broker back after ${((Date.now() - downAt) / 1000).toFixed(1)} s`);
      outages.push({
        signal: outage.signal,
        atEvent,
        unavailableSeconds: Math.round((Date.now() - downAt) / 100) / 10,
        restartSeconds,
      });
    }
    await producing;
    clearInterval(ticker);
    progress(`all ${EVENTS} events acknowledged (${producer.failedAttempts} failed attempts)`);
    const produceSeconds = (Date.now() - produceStart) / 1000;

    const truth: TopicTruth = await readTopicTruth(kafka, topic, EVENTS);
    progress(`topic holds ${truth.records} records`);

    // The producer side lost nothing: every event is in the topic.
    expect(truth.missingSeqs).toEqual([]);
    expect(truth.distinctSeqs).toBe(EVENTS);
    expect(truth.perUser.size).toBe(USERS);

    const users = [...truth.perUser.keys()].sort();
    const stats = async (instance: OrderStatsInstance, user: string) => {
      const r = await instance.request(`/stats/${user}`);
      return r.status === 200 ? (r.body as Stats) : undefined;
    };
    // What each application has counted so far, for the failure message of a wait.
    const counted = async (instance: OrderStatsInstance) => {
      let total = 0;
      for (const user of users) total += (await stats(instance, user))?.count ?? 0;
      const meta = (await instance.request('/streams/metadata')).body as {
        state?: string;
        metrics?: unknown;
      };
      return `${instance.endpoint}: counted ${total} of ${truth.records}, state ${meta.state}, metrics ${JSON.stringify(meta.metrics)}`;
    };
    const explain = async (error: unknown) => {
      const lines = await Promise.all(instances.map((i) => counted(i).catch(String)));
      throw new Error(`${String(error)}\n${lines.join('\n')}`);
    };
    // Exactly-once: every user exact, asked of both instances (the other one forwards).
    await waitWhileAlive(
      instances,
      async () => {
        for (const user of users) {
          const s = await stats(eos[0], user);
          if (s?.count !== truth.perUser.get(user)!.count) return false;
        }
        return true;
      },
      180_000,
      'exactly-once counts caught up',
    ).catch(explain);
    // 503s in the final reads, by reason: allowed (a rebalance the restart set off, a member in
    // doubt until its next heartbeat), retried after their Retry-After, and reported.
    const finalUnavailable = new Map<string, number>();
    /** The instance's answer for the user once it is not a 503 (within a minute). */
    const settled = async (instance: OrderStatsInstance, user: string) => {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const r = await instance.request(`/stats/${user}`);
        if (r.status !== 503 || Date.now() > deadline) {
          expect(`${r.status} ${r.status === 200 ? '' : JSON.stringify(r.body)}`).toBe('200 ');
          return r.body as Stats;
        }
        const reason = String((r.body as { message?: unknown }).message).replace(/\d+/g, '#');
        finalUnavailable.set(reason, (finalUnavailable.get(reason) ?? 0) + 1);
        const retryAfter = Number(r.headers.get('retry-after'));
        expect(retryAfter).toBeGreaterThan(0); // a 503 says when to ask again
        await new Promise((resolve) => setTimeout(resolve, Math.min(retryAfter, 2) * 1000));
      }
    };
    for (const user of users) {
      for (const instance of eos) {
        expect(await settled(instance, user)).toEqual(truth.perUser.get(user));
      }
    }
    // At-least-once: never less than the truth (replays after a failure may count twice).
    await waitWhileAlive(
      instances,
      async () => {
        for (const user of users) {
          const s = await stats(alos[0], user);
          if (!s || s.count < truth.perUser.get(user)!.count) return false;
        }
        return true;
      },
      180_000,
      'at-least-once counts caught up',
    ).catch(explain);
    let alosExtra = 0;
    for (const user of users) {
      for (const instance of alos) {
        const s = await settled(instance, user);
        const t = truth.perUser.get(user)!;
        expect(s.count).toBeGreaterThanOrEqual(t.count);
        expect(s.sum).toBeGreaterThanOrEqual(t.sum);
        if (instance === alos[0]) alosExtra += s.count - t.count;
      }
    }

    // Nobody exited, everybody RUNNING again, no operator action.
    for (const instance of instances) {
      expect(instance.process.exitCode).toBeNull();
      expect(instance.process.signalCode).toBeNull();
      const meta = await instance.request('/streams/metadata');
      expect(meta.status).toBe(200);
      expect((meta.body as { state: string }).state).toBe('RUNNING');
    }

    recordFigures('broker-restart', {
      events: EVENTS,
      users: USERS,
      rate: RATE,
      instances: { exactly_once_v2: eos.length, at_least_once: alos.length },
      brokerStartSeconds,
      outages,
      producerFailedAttempts: producer.failedAttempts,
      producerLongestStallSeconds: producer.longestStallMs / 1000,
      topicRecords: truth.records,
      topicDuplicates: truth.records - truth.distinctSeqs,
      exactlyOnceUsersExact: users.length,
      atLeastOnceExtraCounts: alosExtra,
      /** Probe answers of one exactly-once instance from the kill until the broker answered. */
      healthDuringOutage: Object.fromEntries(health),
      /** 503s in the final reads, by reason (each retried after its Retry-After). */
      finalUnavailable: Object.fromEntries(finalUnavailable),
      threadReplacements: instances.map(
        (i) => i.output.split('stream thread lost the cluster').length - 1,
      ),
      produceSeconds,
      wallSeconds: (Date.now() - wallStart) / 1000,
    });
  });
});

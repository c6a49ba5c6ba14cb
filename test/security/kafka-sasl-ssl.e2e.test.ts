/**
 * The example application against a broker that only lets it in over SASL_SSL: TLS with a
 * certificate from a CA the test makes (openssl), SASL SCRAM-SHA-512 (users created with
 * Kafka's own storage tool) and PLAIN. It processes, answers and, with its state directory
 * wiped, restores every store through that listener; wrong credentials and an untrusted
 * certificate stop it at the first attempt with one typed error.
 */
// kafkajs with the engine's fixes: importing @nest-streams/streams installs them, before this
// file loads kafkajs.
import '@nest-streams/streams';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel, type SASLOptions } from 'kafkajs';
import { TestPki } from '../../tools/tls/test-pki';
import { OrderStatsInstance } from '../../tools/instances/order-stats-instance';
import { DedicatedBroker } from '../reliability/support/broker-dedicated';
import { readyAndRunning } from '../support/health';
import { randomSuffix, waitForTopicLeaders } from '../support/kafka-test-context';
import { waitFor } from '../support/wait-for';

const SCRAM = { user: 'orders-scram', password: 'scram-password-1' };
const PLAIN = { user: 'orders-plain', password: 'plain-password-1' };
const USERS = 40;
const EVENTS = 2_000;
const PARTITIONS = 6;

describe('order-stats through a SASL_SSL listener', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sasl-ssl-e2e-'));
  const applicationId = `sasl-ssl-app-${randomSuffix()}`;
  const topic = `sasl-ssl-events-${randomSuffix()}`;
  const truth = new Map<string, { count: number; sum: number }>();
  const instances: OrderStatsInstance[] = [];
  let pki: TestPki;
  let broker: DedicatedBroker;

  const sasl = (mechanism: 'plain' | 'scram-sha-512', user: string, password: string) =>
    ({ mechanism, username: user, password }) as SASLOptions;
  const client = (who = SCRAM) =>
    new Kafka({
      clientId: 'sasl-ssl-e2e',
      brokers: [broker.saslSslAddress],
      ssl: { ca: [pki.ca] },
      sasl: sasl(who === SCRAM ? 'scram-sha-512' : 'plain', who.user, who.password),
      logLevel: logLevel.NOTHING,
    });
  const appEnv = (mechanism: string, user: string, password: string, caFile = pki.caFile) => ({
    KAFKA_BROKERS: broker.saslSslAddress,
    KAFKA_SECURITY_PROTOCOL: 'SASL_SSL',
    KAFKA_SASL_MECHANISM: mechanism,
    KAFKA_SASL_USERNAME: user,
    KAFKA_SASL_PASSWORD: password,
    ...(caFile ? { KAFKA_SSL_CA_FILE: caFile } : {}),
    APPLICATION_ID: applicationId,
    INPUT_TOPIC: topic,
    COMMIT_INTERVAL_MS: '200',
  });
  const start = async (env: Record<string, string>, stateDir: string) => {
    const instance = await OrderStatsInstance.start({ ...env, STATE_DIR: stateDir });
    instances.push(instance);
    return instance;
  };
  const ready = (instance: OrderStatsInstance) =>
    waitFor(
      async () => readyAndRunning(await instance.request('/health/ready')),
      120_000,
      'the instance ready and RUNNING',
      {
        abortIf: () => (instance.process.exitCode !== null ? 'it exited' : undefined),
        context: () => instance.output.slice(-3000),
      },
    );
  const checkEveryUser = async (instance: OrderStatsInstance) => {
    for (const [user, stats] of truth) {
      const answer = await instance.request(`/stats/${user}`);
      expect({ user, status: answer.status, body: answer.body }).toEqual({
        user,
        status: 200,
        body: stats,
      });
    }
    const range = await instance.request('/stats/range?from=user-000&to=user-999');
    expect(range.body).toEqual(
      [...truth].sort(([a], [b]) => a.localeCompare(b)).map(([userId, s]) => ({ userId, ...s })),
    );
  };
  const failedAuthentications = (reason: RegExp) =>
    broker
      .serverLog()
      .split('\n')
      .filter((line) => line.includes('Failed authentication') && reason.test(line)).length;

  beforeAll(async () => {
    pki = TestPki.create(join(dir, 'pki'));
    const certificate = pki.issue('broker', ['127.0.0.1', 'localhost']);
    const listener = join(dir, 'sasl-ssl-listener.json');
    writeFileSync(
      listener,
      JSON.stringify({
        keystore: pki.keystore(certificate, 'broker-keystore-pw'),
        keystorePassword: 'broker-keystore-pw',
        plainUsers: { [PLAIN.user]: PLAIN.password },
        scramUsers: { [SCRAM.user]: SCRAM.password },
      }),
    );
    broker = DedicatedBroker.create();
    await broker.start(false, listener);
    expect(broker.saslSslAddress).toMatch(/^127\.0\.0\.1:\d+$/);
    const admin = client().admin();
    await admin.connect();
    await admin.createTopics({
      topics: [{ topic, numPartitions: PARTITIONS, replicationFactor: 1 }],
      waitForLeaders: false,
    });
    await waitForTopicLeaders(admin, topic, PARTITIONS);
    await admin.disconnect();
  }, 240_000);

  afterAll(async () => {
    await Promise.all(instances.map((i) => i.stop('SIGKILL')));
    await broker?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('processes, answers and restores with SCRAM-SHA-512 and PLAIN over TLS', async () => {
    const first = await start(appEnv('SCRAM-SHA-512', SCRAM.user, SCRAM.password), join(dir, 'a'));
    await ready(first);

    const producer = client(PLAIN).producer();
    await producer.connect();
    const messages = Array.from({ length: EVENTS }, (_, i) => {
      const userId = `user-${String(i % USERS).padStart(3, '0')}`;
      const amount = (i % 13) + 1;
      const t = truth.get(userId) ?? { count: 0, sum: 0 };
      truth.set(userId, { count: t.count + 1, sum: t.sum + amount });
      return { key: userId, value: JSON.stringify({ userId, amount }) };
    });
    await producer.send({ topic, messages });
    await producer.disconnect();
    await waitFor(
      async () =>
        ((await first.request('/streams/metadata')).body as { metrics: { processed: number } })
          .metrics.processed === EVENTS,
      120_000,
      'every event processed',
      { context: () => first.output.slice(-2000) },
    );
    await checkEveryUser(first);

    // A new instance with an empty state directory, on PLAIN: it restores every store from its
    // changelog through the same listener, then answers exactly.
    await first.stop('SIGTERM');
    const changelog = `${applicationId}-stats-store-changelog`;
    const admin = client(PLAIN).admin();
    await admin.connect();
    const offsets = await admin.fetchTopicOffsets(changelog);
    await admin.disconnect();
    const changelogRecords = offsets.reduce((n, p) => n + Number(p.high), 0);
    expect(changelogRecords).toBeGreaterThanOrEqual(USERS);

    const second = await start(appEnv('PLAIN', PLAIN.user, PLAIN.password), join(dir, 'b'));
    await ready(second);
    const metrics = String((await second.request('/metrics')).body);
    const restored = /^kafka_streams_restored_records\{store="stats-store"\} (\d+)$/m.exec(metrics);
    expect(Number(restored?.[1])).toBe(changelogRecords);
    await checkEveryUser(second);
    expect(second.output).not.toMatch(/KAFKA_AUTHENTICATION_FAILED|SASL .* failed/);
  });

  it('stops at the first attempt, with one typed error, on wrong credentials or an untrusted certificate', async () => {
    const scramFailures = () =>
      failedAuthentications(/invalid credentials with SASL mechanism SCRAM-SHA-512/);
    const plainFailures = () => failedAuthentications(/Invalid username or password/);
    const before = { scram: scramFailures(), plain: plainFailures() };
    const started = Date.now();
    const attempts = await Promise.all([
      start(appEnv('SCRAM-SHA-512', SCRAM.user, 'wrong-password'), join(dir, 'x1')),
      start(appEnv('PLAIN', PLAIN.user, 'wrong-password'), join(dir, 'x2')),
      // No KAFKA_SSL_CA_FILE: Node's own CAs, which did not sign the broker's certificate.
      start(appEnv('SCRAM-SHA-512', SCRAM.user, SCRAM.password, ''), join(dir, 'x3')),
    ]);
    const exits = await Promise.all(
      attempts.map(
        (instance) =>
          new Promise<number | null>((resolve) => {
            if (instance.process.exitCode !== null) resolve(instance.process.exitCode);
            else instance.process.once('exit', (code) => resolve(code));
          }),
      ),
    );
    const seconds = (Date.now() - started) / 1000;
    expect(exits).toEqual([1, 1, 1]);
    for (const [i, instance] of attempts.entries()) {
      const errors = instance.output.match(/KAFKA_AUTHENTICATION_FAILED/g) ?? [];
      // The module ends the process (client.exitOnStartFailure), saying so once.
      const exits = instance.output.match(
        /the process exits with code 1: the client could not start/g,
      );
      expect({ attempt: i, errors: errors.length, exits: exits?.length }).toEqual({
        attempt: i,
        errors: 1,
        exits: 1,
      });
    }
    expect(attempts[0].output).toContain(
      `refused the SASL credentials of user '${SCRAM.user}' (SCRAM-SHA-512)`,
    );
    expect(attempts[1].output).toContain(
      `refused the SASL credentials of user '${PLAIN.user}' (PLAIN)`,
    );
    expect(attempts[2].output).toMatch(/TLS certificate of the Kafka cluster .* is not trusted/);
    for (const instance of attempts) expect(instance.output).not.toContain('wrong-password');
    // No retry loop. The broker saw exactly one attempt with each wrong password...
    await waitFor(
      () => scramFailures() > before.scram && plainFailures() > before.plain,
      10_000,
      'the broker logging both refused logins',
    );
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect({
      scram: scramFailures() - before.scram,
      plain: plainFailures() - before.plain,
    }).toEqual({ scram: 1, plain: 1 });
    // ...and kafkajs never opened a connection for the client that does not trust the broker
    // (the certificate check before connecting stopped it; kafkajs logs every attempt).
    expect(attempts[2].output).not.toContain('[Connection]');
    process.stdout.write(`[sasl-ssl] three refused starts exited in ${seconds.toFixed(1)} s\n`);
  });
});

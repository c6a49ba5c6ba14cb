/**
 * Two instances of the example application (separate processes, the shared broker) with the
 * TLS settings the Kubernetes manifests give a pod: the `CLUSTER_TLS_*` files where the
 * Secret's mount puts them (here a directory of the test, the certificates made with openssl),
 * `MANAGEMENT_PORT` set. Every user is answered exactly by both instances over HTTPS, which
 * takes forwarding to the owner (HTTPS between the instances) and ranges across the cluster
 * (the query port, mutual TLS); no message between them is refused. A peer without a trusted
 * certificate gets nothing from the query port, not even with the cluster secret: no
 * certificate, a certificate of another CA, or plain TCP. The client port speaks only HTTPS,
 * and shows no operator surface: the key look-up is not there for anyone, and off on the
 * management port.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { connect as tcpConnect } from 'node:net';
import { freePort } from '@nest-streams/testing/kafka';
import { TestPki, type TestCertificate } from '../../tools/tls/test-pki';
import {
  OrderStatsInstance,
  TEST_CLUSTER_SECRET,
} from '../../tools/instances/order-stats-instance';
import { frame, sealAsMember } from '../reliability/support/query-port-client';
import { readyAndRunning } from '../support/health';
import { httpsGet, type HttpsCaller } from '../support/https-request';
import { brokers, KafkaTestContext } from '../support/kafka-test-context';
import { localClusterTls } from '../support/kube-manifests';
import { waitFor } from '../support/wait-for';

const USERS = 24;
const EVENTS = 1_200;

/** An instance with its management port (plain HTTP: metrics, layout, cluster page). */
interface TlsInstance {
  readonly process: OrderStatsInstance;
  readonly managementPort: number;
}

/** What a TLS or TCP client got from the query port: the bytes it read, and how it ended. */
interface QueryPortAttempt {
  readonly received: string;
  readonly error: string | undefined;
}

describe('order-stats with mutual TLS between instances, as the manifests configure it', () => {
  const ctx = new KafkaTestContext();
  const dir = mkdtempSync(join(tmpdir(), 'cluster-tls-e2e-'));
  const instances: TlsInstance[] = [];
  const truth = new Map<string, { count: number; sum: number }>();
  let pki: TestPki;
  let member: TestCertificate;
  let caller: HttpsCaller;

  afterAll(async () => {
    await Promise.all(instances.map((i) => i.process.stop('SIGKILL')));
    await ctx.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = <T = unknown>(i: TlsInstance, path: string) =>
    httpsGet<T>(`https://127.0.0.1:${i.process.port}${path}`, caller);
  /** The instance's counters of one metric by its label, from the management port. */
  const counters = async (i: TlsInstance, metric: string): Promise<Record<string, number>> => {
    const text = await (await fetch(`http://127.0.0.1:${i.managementPort}/metrics`)).text();
    const result: Record<string, number> = {};
    for (const m of text.matchAll(
      new RegExp(`^kafka_streams_${metric}\\{\\w+="(\\w+)"\\} (\\d+)$`, 'gm'),
    )) {
      result[m[1]] = Number(m[2]);
    }
    return result;
  };
  const nonZero = (counts: Record<string, number>) =>
    Object.fromEntries(Object.entries(counts).filter(([, n]) => n !== 0));

  it('forwards and queries across instances over TLS, and refuses a peer without a trusted certificate', async () => {
    pki = TestPki.create(join(dir, 'pki'));
    member = pki.issue('order-stats', ['127.0.0.1', 'localhost']);
    caller = { ca: pki.ca };
    const mounted = join(dir, 'tls');
    mkdirSync(mounted);
    const tls = localClusterTls(mounted);
    writeFileSync(tls.files.cert, member.cert);
    writeFileSync(tls.files.key, member.key);
    writeFileSync(tls.files.ca, pki.ca);

    const input = await ctx.createTopic(ctx.topicName('tls-events'), 6);
    for (const name of ['a', 'b']) {
      const managementPort = await freePort();
      const instance = await OrderStatsInstance.start({
        ...tls.env,
        KAFKA_BROKERS: brokers().join(','),
        APPLICATION_ID: ctx.applicationId,
        INPUT_TOPIC: input,
        COMMIT_INTERVAL_MS: '200',
        STATE_DIR: join(dir, name),
        MANAGEMENT_PORT: String(managementPort),
      });
      instances.push({ process: instance, managementPort });
    }
    const [a, b] = instances;
    const output = () =>
      instances
        .map((i) => `--- ${i.process.endpoint}\n${i.process.output.slice(-3000)}`)
        .join('\n');
    await waitFor(
      async () => {
        const answers = await Promise.all(instances.map((i) => get(i, '/health/ready')));
        return answers.every(readyAndRunning);
      },
      120_000,
      'both instances ready over HTTPS',
      {
        abortIf: () => instances.find((i) => !i.process.alive) && 'an instance exited',
        context: output,
      },
    );

    const producer = ctx.kafka.producer();
    await producer.connect();
    await producer.send({
      topic: input,
      messages: Array.from({ length: EVENTS }, (_, i) => {
        const userId = `user-${String(i % USERS).padStart(3, '0')}`;
        const amount = (i % 9) + 1;
        const t = truth.get(userId) ?? { count: 0, sum: 0 };
        truth.set(userId, { count: t.count + 1, sum: t.sum + amount });
        return {
          key: userId,
          value: JSON.stringify({ userId, amount }),
          timestamp: String(Date.now()),
        };
      }),
    });
    await producer.disconnect();
    const users = [...truth.keys()].sort();
    await waitFor(
      async () => {
        for (const user of users) {
          const answer = await get(a, `/stats/${user}`);
          if (JSON.stringify(answer.body) !== JSON.stringify(truth.get(user))) return false;
        }
        return true;
      },
      60_000,
      'every event processed',
      { context: output },
    );
    const forwardedBefore = await Promise.all(
      instances.map((i) => counters(i, 'routing_requests_total')),
    );

    // Every user, from both instances: the owner answers (forwarded over HTTPS when it is the other one).
    const owners = new Map<string, string>();
    for (const user of users) {
      for (const instance of instances) {
        const answer = await get(instance, `/stats/${user}`);
        const servedBy = String(answer.headers['x-served-by']);
        expect({ user, status: answer.status, body: answer.body }).toEqual({
          user,
          status: 200,
          body: truth.get(user),
        });
        expect(servedBy).toBe(owners.get(user) ?? servedBy);
        owners.set(user, servedBy);
      }
    }
    const owned = (i: TlsInstance) => users.filter((u) => owners.get(u) === i.process.endpoint);
    expect(owned(a).length).toBeGreaterThan(0);
    expect(owned(b).length).toBeGreaterThan(0);
    expect(owned(a).length + owned(b).length).toBe(USERS);
    const forwardedAfter = await Promise.all(
      instances.map((i) => counters(i, 'routing_requests_total')),
    );
    // Each instance forwarded exactly the users the other one owns.
    expect(forwardedAfter[0].forwarded - forwardedBefore[0].forwarded).toBe(owned(b).length);
    expect(forwardedAfter[1].forwarded - forwardedBefore[1].forwarded).toBe(owned(a).length);

    // Ranges over the whole cluster: half of them through the other instance's query port (mTLS).
    const expectedRange = users.map((userId) => ({ userId, ...truth.get(userId) }));
    for (const instance of instances) {
      const range = await get(instance, '/stats/range?from=user-000&to=user-999');
      expect({ status: range.status, body: range.body }).toEqual({
        status: 200,
        body: expectedRange,
      });
    }
    // Nothing between the two was refused.
    for (const instance of instances) {
      expect(nonZero(await counters(instance, 'query_refusals_total'))).toEqual({});
      expect(nonZero(await counters(instance, 'hop_refusals_total'))).toEqual({});
    }

    // Peers without a trusted certificate, even holding the cluster secret: the handshake fails
    // before a byte of the query is read; each is counted as unauthenticated.
    const pattern = `nest-streams.query:127.0.0.1:${a.process.queryPort}`;
    const probe = frame({
      pattern,
      id: 'x',
      data: sealAsMember(TEST_CLUSTER_SECRET, pattern, {
        version: 1,
        target: `127.0.0.1:${a.process.queryPort}`,
        from: 'stranger',
        request: { storeName: 'stats-store', query: { type: 'range' } },
      }),
    });
    const stranger = TestPki.create(join(dir, 'stranger-pki')).issue('stranger', ['127.0.0.1']);
    const before = await counters(a, 'query_refusals_total');
    const attempts = {
      noCertificate: await queryPort(a.process.queryPort, probe, { ca: pki.ca }),
      otherCa: await queryPort(a.process.queryPort, probe, {
        ca: pki.ca,
        cert: stranger.cert,
        key: stranger.key,
      }),
      plainTcp: await queryPort(a.process.queryPort, probe, undefined),
    };
    // Not a byte back, and each refused at the handshake (the server says why to the one that
    // showed no certificate; the others see the connection closed).
    expect(Object.values(attempts).map((attempt) => attempt.received)).toEqual(['', '', '']);
    expect(attempts.noCertificate.error).toContain('alert certificate required');
    const after = await counters(a, 'query_refusals_total');
    expect(after.unauthenticated - before.unauthenticated).toBe(3);

    // The client port speaks HTTPS only, and serves no operator surface (the management port does).
    await expect(fetch(`http://127.0.0.1:${a.process.port}/health/live`)).rejects.toThrow();
    // The key look-up is not on the client port at all: not for an outsider, not with a hop
    // header, not even with the cluster secret; nor on the management port (off by default).
    const lookup = `/streams/ui/api/lookup?store=stats-store&key=${users[0]}`;
    const outsiders: Record<string, string>[] = [
      {},
      { 'x-streams-forwarded': b.process.endpoint, 'x-streams-standby-read': 'true' },
      { authorization: `Bearer ${TEST_CLUSTER_SECRET}` },
    ];
    for (const headers of outsiders) {
      const answer = await httpsGet(
        `https://127.0.0.1:${a.process.port}${lookup}`,
        caller,
        headers,
      );
      expect({ status: answer.status, body: answer.body }).toEqual({
        status: 404,
        body: { statusCode: 404, error: 'Not Found', message: `Cannot GET ${lookup}` },
      });
    }
    const offThere = await fetch(`http://127.0.0.1:${a.managementPort}${lookup}`);
    expect(offThere.status).toBe(404);
    for (const path of [
      '/metrics',
      '/streams/metadata',
      '/streams/ui',
      '/streams/ui/api/cluster',
    ]) {
      expect({ path, status: (await get(a, path)).status }).toEqual({ path, status: 404 });
    }
    const layout = await fetch(`http://127.0.0.1:${a.managementPort}/streams/metadata`);
    expect(layout.status).toBe(200);
    expect(
      ((await layout.json()) as { instances: { host: string }[] }).instances
        .map((i) => i.host)
        .sort(),
    ).toEqual(instances.map((i) => i.process.endpoint).sort());
  });
});

/**
 * Connects to a query port (TLS with `tls`, else plain TCP), writes `payload` once connected
 * (or at once for TCP), and reads until the server closes (5 s at most).
 */
function queryPort(
  port: number,
  payload: string,
  tls: HttpsCaller | undefined,
): Promise<QueryPortAttempt> {
  return new Promise((resolve) => {
    let received = '';
    let error: string | undefined;
    const socket = tls
      ? tlsConnect(
          {
            host: '127.0.0.1',
            port,
            ca: tls.ca,
            cert: tls.cert,
            key: tls.key,
            servername: 'localhost',
          },
          () => socket.write(payload),
        )
      : tcpConnect(port, '127.0.0.1', () => socket.write(payload));
    const timer = setTimeout(() => socket.destroy(), 5000);
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    socket.on('error', (e: Error) => (error = e.message));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ received, error });
    });
  });
}

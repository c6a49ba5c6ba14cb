/**
 * The packages as a Nest team gets them: `npm pack` the four packages, create a fresh Nest
 * application outside the repository (test/consumer/fixture: its own package.json and
 * tsconfig, no paths, no access to the sources), install the tarballs and the peers, type-check
 * it strictly, run its topology unit test with @nest-streams/testing (no broker), then start it
 * against the suite's broker on Express and on Fastify, produce events and read a key through
 * its @RouteByKey endpoint. Once per supported Nest major. A failure names the step.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@nest-streams/testing/kafka';
import { HTTP_PLATFORMS } from '../support/http-platforms';
import { brokers, KafkaTestContext } from '../support/kafka-test-context';
import { waitFor } from '../support/wait-for';
import {
  ConsumerProject,
  packPackages,
  step,
  type ConsumerProcess,
  type Tarballs,
} from './consumer-project';

/** The Nest majors the peer ranges of @nest-streams/nestjs name. */
const NEST_MAJORS = [11, 12] as const;

const EVENTS = [
  { userId: 'alice', amount: 10 },
  { userId: 'bob', amount: 4 },
  { userId: 'alice', amount: 5 },
  { userId: 'carol', amount: 1 },
  { userId: 'alice', amount: 2.5 },
];

describe('a fresh Nest application installs the packed packages and runs them', () => {
  const ctx = new KafkaTestContext();
  const packDir = mkdtempSync(join(tmpdir(), 'nest-streams-packages-'));
  let tarballs: Tarballs;

  beforeAll(async () => {
    tarballs = await step('npm pack the four packages', () => packPackages(packDir));
  }, 300_000);

  afterAll(async () => {
    await ctx.cleanup();
    rmSync(packDir, { recursive: true, force: true });
  });

  it.each(NEST_MAJORS)(
    'on Nest %i: install, strict type-check, topology unit test, then Express and Fastify',
    async (major) => {
      const project = new ConsumerProject(major, tarballs);
      const running: ConsumerProcess[] = [];
      try {
        await step(`npm install the tarballs and Nest ${major} peers`, () => project.install());
        // The RocksDB addon built at install (not the fallback binding).
        expect(project.installedAddonStatus()).toEqual({ built: true });
        await step(`tsc (strict) on Nest ${major}`, () => project.typeCheck());
        const unit = await step('topology unit test with @nest-streams/testing', () =>
          project.unitTest(),
        );
        expect(unit).toMatch(/# pass 1\n/);
        expect(unit).toMatch(/# fail 0\n/);

        for (const platform of HTTP_PLATFORMS) {
          const where = `Nest ${major} on ${platform}`;
          const input = await ctx.createTopic(ctx.topicName(`consumer-${major}-${platform}`), 3);
          const port = await freePort();
          const stateDir = mkdtempSync(join(tmpdir(), 'nest-streams-consumer-state-'));
          const endpoint = `127.0.0.1:${port}`;
          const app = project.start({
            KAFKA_BROKERS: brokers().join(','),
            PORT: String(port),
            APPLICATION_ID: `${ctx.applicationId}-${major}-${platform}`,
            INPUT_TOPIC: input,
            STATE_DIR: stateDir,
            HTTP_PLATFORM: platform,
          });
          running.push(app);
          const waitOptions = {
            abortIf: () => (app.exited ? `the application exited:\n${app.output}` : undefined),
            context: () => app.output,
          };
          try {
            await step(`start ${where} (GET /health/ready 200)`, () =>
              waitFor(
                async () => (await fetch(`http://${endpoint}/health/ready`)).status === 200,
                90_000,
                'readiness',
                waitOptions,
              ),
            );
            await step(`produce events (${where})`, async () => {
              const producer = ctx.kafka.producer();
              await producer.connect();
              await producer.send({
                topic: input,
                messages: EVENTS.map((e) => ({ key: e.userId, value: JSON.stringify(e) })),
              });
              await producer.disconnect();
            });
            await step(`read alice through GET /stats/:userId (${where})`, async () => {
              let answer: { status: number; servedBy: string | null; body: string } | undefined;
              await waitFor(
                async () => {
                  const response = await fetch(`http://${endpoint}/stats/alice`);
                  answer = {
                    status: response.status,
                    servedBy: response.headers.get('x-served-by'),
                    body: await response.text(),
                  };
                  return answer.status === 200 && answer.body === '{"count":3,"sum":17.5}';
                },
                60_000,
                `alice's stats (last answer: ${JSON.stringify(answer)})`,
                waitOptions,
              );
              expect(answer).toEqual({
                status: 200,
                servedBy: endpoint,
                body: '{"count":3,"sum":17.5}',
              });
              const unknown = await fetch(`http://${endpoint}/stats/nobody`);
              expect(unknown.status).toBe(404);
              expect(unknown.headers.get('x-served-by')).toBe(endpoint);
            });
            await step(
              `the cluster page, from the installed package's assets (${where})`,
              async () => {
                const page = await fetch(`http://${endpoint}/ops/streams`);
                expect(page.status).toBe(200);
                expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
                expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'none'/);
                const html = await page.text();
                expect(html).toContain('<h1>Kafka Streams cluster');
                expect(html).toMatch(/<script>\n\/\/ dom\.js\n/);
                const cluster = (await (
                  await fetch(`http://${endpoint}/ops/streams/api/cluster`)
                ).json()) as { instances: { host: string; status: string }[] };
                expect(cluster.instances).toEqual([
                  expect.objectContaining({ host: endpoint, status: 'up' }),
                ]);
              },
            );
            const ended = await step(`stop ${where} (SIGTERM)`, () => app.stop());
            // A clean close: Nest re-raises SIGTERM once its shutdown hooks ran; never SIGKILL.
            expect(['exit 0', 'signal SIGTERM']).toContain(ended);
          } finally {
            await app.stop();
            rmSync(stateDir, { recursive: true, force: true });
          }
        }
      } finally {
        await Promise.all(running.map((app) => app.stop()));
        project.remove();
      }
    },
    900_000,
  );
});

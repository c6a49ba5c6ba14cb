// How the demo sets up a run: options, instance environment, build step, input topic.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createTcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventGenerator } from '../../apps/event-generator/src/main';
import { instanceEnv } from '../../tools/demo/app-instance';
import { parseDemoOptions } from '../../tools/demo/demo-options';
import {
  choosePorts,
  cleanupKafka,
  ensureAppBuilt,
  portIsFree,
  prepareInputTopic,
} from '../../tools/demo/environment';
import { freePort } from '@nest-streams/testing/kafka';
import { brokers, KafkaTestContext } from '../support/kafka-test-context';

describe('demo options', () => {
  it('runs interactively for 30 s by default, unattended with --duration', () => {
    expect(parseDemoOptions([])).toMatchObject({
      durationS: 30,
      unattended: false,
      users: 20,
      rate: 100,
      seed: 42,
      malformed: 10,
      show: 5,
      topic: 'labs.events',
      partitions: 6,
      keep: false,
    });
    expect(parseDemoOptions(['--duration', '45', '--users', '50', '--keep'])).toMatchObject({
      durationS: 45,
      unattended: true,
      users: 50,
      keep: true,
    });
  });

  it.each([[['--duration', '0']], [['--users', '1.5']], [['--what']], [['extra']]])(
    'rejects %j',
    (argv) => {
      expect(() => parseDemoOptions(argv)).toThrow();
    },
  );
});

describe('instance environment', () => {
  it('sets the contract variables for one instance', () => {
    const env = instanceEnv(
      {
        brokers: 'b:1',
        applicationId: 'app',
        inputTopic: 'in',
        standbyReplicas: 1,
        clusterSecret: 'run-secret-0123456789',
      },
      { label: 'A', port: 8080, queryPort: 9999, stateDir: '/s/a', logFile: '/s/a.log' },
      { PATH: '/bin' },
    );
    expect(env).toEqual({
      PATH: '/bin',
      KAFKA_BROKERS: 'b:1',
      PORT: '8080',
      APPLICATION_SERVER: '127.0.0.1:8080',
      APPLICATION_ID: 'app',
      STATE_DIR: '/s/a',
      INPUT_TOPIC: 'in',
      NUM_STANDBY_REPLICAS: '1',
      QUERY_PORT: '9999',
      FORWARDING_SECRET: 'run-secret-0123456789',
      COMMIT_INTERVAL_MS: '1000',
    });
    expect(
      instanceEnv(
        {
          brokers: 'b',
          applicationId: 'a',
          inputTopic: 'i',
          standbyReplicas: 1,
          clusterSecret: 's',
        },
        { label: 'A', port: 1, queryPort: 2, stateDir: 's', logFile: 'l' },
        { COMMIT_INTERVAL_MS: '5000' },
      ).COMMIT_INTERVAL_MS,
    ).toBe('5000');
  });

  it('uses preferred ports when free, others when taken', async () => {
    const busy = createTcpServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const taken = (busy.address() as { port: number }).port;
    const free = await freePort();
    expect(await portIsFree(taken)).toBe(false);
    const ports = await choosePorts(3, [free, taken], [12345]);
    expect(ports[0]).toBe(free);
    expect(ports[1]).not.toBe(taken);
    expect(new Set(ports).size).toBe(3);
    expect(ports).not.toContain(12345);
    await new Promise<void>((resolve) => busy.close(() => resolve()));
  });
});

describe('build step', () => {
  /** A throwaway package whose `npm run build` runs `script`. */
  const project = (script: string): string => {
    const dir = mkdtempSync(join(tmpdir(), 'demo-build-'));
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'x', version: '1.0.0', private: true, scripts: { build: script } }),
    );
    return dir;
  };
  const quiet = (): void => undefined;

  it('runs npm run build when the application is missing, and not when it is there', async () => {
    const dir = project(
      `node -e "require('fs').mkdirSync('out',{recursive:true});require('fs').appendFileSync('out/main.js','built\\n')"`,
    );
    const entry = join(dir, 'out', 'main.js');
    await ensureAppBuilt(entry, dir, quiet);
    await ensureAppBuilt(entry, dir, quiet);
    expect(readFileSync(entry, 'utf8')).toBe('built\n');
  }, 60_000);

  it('says what went wrong when the build fails or leaves no application', async () => {
    const failing = project('node -e "process.exit(2)"');
    await expect(ensureAppBuilt(join(failing, 'main.js'), failing, quiet)).rejects.toThrow(
      'npm run build failed (exit code 2)',
    );
    const empty = project('node -e "0"');
    await expect(ensureAppBuilt(join(empty, 'main.js'), empty, quiet)).rejects.toThrow(
      /did not produce .*main\.js: is apps\/order-stats in this checkout\?/,
    );
  }, 60_000);
});

describe('input topic of a demo run (against the broker)', () => {
  const ctx = new KafkaTestContext();
  afterAll(() => ctx.cleanup());
  const lines: string[] = [];
  const log = (line: string): void => void lines.push(line);

  it('creates the topic, reuses it while empty, and takes a fresh one otherwise', async () => {
    const admin = await ctx.admin();
    const wanted = `${ctx.applicationId}-in`;
    expect(await prepareInputTopic(admin, wanted, 6, 's1', log)).toEqual({
      topic: wanted,
      partitions: 6,
      created: true,
    });
    expect(await prepareInputTopic(admin, wanted, 6, 's2', log)).toEqual({
      topic: wanted,
      partitions: 6,
      created: false,
    });
    // Another partition count: a fresh topic.
    expect(await prepareInputTopic(admin, wanted, 3, 's3', log)).toEqual({
      topic: `${wanted}.demo-s3`,
      partitions: 3,
      created: true,
    });
    // Records from an earlier run: a fresh topic, so that this run's totals are its own.
    await new EventGenerator({
      brokers: brokers(),
      topic: wanted,
      users: 2,
      seed: 1,
      events: 5,
    }).run();
    expect(await prepareInputTopic(admin, wanted, 6, 's4', log)).toEqual({
      topic: `${wanted}.demo-s4`,
      partitions: 6,
      created: true,
    });
    expect(lines.join('\n')).toContain('already holds 5 records');
    expect(lines.join('\n')).toContain('has 6 partitions, not 3');
  });

  it('cleans up what a run created: its input topic, internal topics and group', async () => {
    const admin = await ctx.admin();
    const applicationId = `${ctx.applicationId}-run`;
    const input = `${ctx.applicationId}-input-of-run`;
    const other = ctx.topicName('keep');
    await ctx.createTopic(input, 1);
    await ctx.createTopic(`${applicationId}-stats-store-changelog`, 1);
    await ctx.createTopic(other, 1);
    await cleanupKafka(admin, { applicationId, createdTopic: input }, log);
    const left = await admin.listTopics();
    expect(left).not.toContain(input);
    expect(left).not.toContain(`${applicationId}-stats-store-changelog`);
    expect(left).toContain(other);
  });
});

import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KafkaStreams, KafkaStreamsState } from '@nest-streams/streams';
import { brokers, KafkaTestContext } from '../support/kafka-test-context';
import { storeContents } from '../support/store-contents';
import { streamsClient } from '../support/streams-client';
import { waitFor } from '../support/wait-for';
import { statsTopology, type OrderEvent, type OrderStats } from '../runtime/stats-topology';

const BIN = join(__dirname, '../../libs/streams/bin/nest-streams.js');
const quiet = { info: () => undefined, warn: () => undefined };

/** Runs the built `nest-streams` command; its exit code and output. */
function nestStreams(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? -1) : 0, stdout, stderr }),
    );
  });
}

function truthOf(events: readonly OrderEvent[]): Map<string, OrderStats> {
  const truth = new Map<string, OrderStats>();
  for (const e of events) {
    const t = truth.get(e.userId) ?? { count: 0, sum: 0 };
    truth.set(e.userId, { count: t.count + 1, sum: t.sum + e.amount });
  }
  return truth;
}

const USERS = 20;
/** `count` events from `first` on, user i % 20 on partition (i % 20) % 2 (key-consistent). */
const eventsFrom = (first: number, count: number): (OrderEvent & { partition: number })[] =>
  Array.from({ length: count }, (_, j) => {
    const i = first + j;
    return { userId: `user-${i % USERS}`, amount: (i % 7) + 1, partition: (i % USERS) % 2 };
  });

/**
 * `nest-streams reset` against the broker: refused while the application runs; after it (and
 * `KafkaStreams.cleanUp()`) a restart recomputes the store from the chosen point exactly.
 */
describe('application reset against the broker', () => {
  const ctx = new KafkaTestContext();
  const app = ctx.applicationId;
  const stateDir = mkdtempSync(join(tmpdir(), 'app-reset-'));
  const running: KafkaStreams[] = [];
  afterAll(async () => {
    await Promise.all(running.map((s) => s.close()));
    await (await ctx.admin()).deleteGroups([app, `${app}-kip1071`]).catch(() => undefined);
    await ctx.cleanup();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('moves the input offsets, deletes the internal topics and the local state; the restart recomputes exactly', async () => {
    const input = await ctx.createTopic(ctx.topicName('reset-in'), 2);
    const changelog = `${app}-stats-store-changelog`;
    const now = Date.now();
    const old = eventsFrom(0, 600); // three hours ago: 300 a partition
    const recent = eventsFrom(600, 400); // ten minutes ago: 200 a partition
    const producer = ctx.kafka.producer();
    await producer.connect();
    for (const [events, timestamp] of [
      [old, now - 3 * 3_600_000],
      [recent, now - 600_000],
    ] as const) {
      await producer.send({
        topic: input,
        messages: events.map(({ partition, ...e }) => ({
          key: e.userId,
          value: JSON.stringify(e),
          partition,
          timestamp: String(timestamp),
        })),
      });
    }
    await producer.disconnect();

    const start = async (cleanUpFirst = false) => {
      const streams = new KafkaStreams(
        statsTopology(input),
        {
          applicationId: app,
          bootstrapServers: brokers(),
          kafkaClient: streamsClient(),
          stateDir,
          commitIntervalMs: 200,
        },
        { logger: quiet },
      );
      if (cleanUpFirst) await streams.cleanUp();
      running.push(streams);
      await streams.start();
      return streams;
    };
    const runUntil = async (streams: KafkaStreams, processed: number) => {
      await waitFor(
        () =>
          streams.state === KafkaStreamsState.RUNNING && streams.metrics().processed >= processed,
        90_000,
        `${processed} records processed`,
      );
      expect(streams.metrics().processed).toBe(processed);
    };
    const stop = async (streams: KafkaStreams) => {
      await streams.close();
      running.splice(running.indexOf(streams), 1);
    };
    const client = ['--bootstrap-server', brokers().join(','), '--client', streamsClient()];
    const reset = (...args: string[]) =>
      nestStreams(['reset', '--application-id', app, '--input-topics', input, ...client, ...args]);

    const first = await start();
    await runUntil(first, 1000);
    expect(storeContents<OrderStats>(first, 'stats-store')).toEqual(truthOf([...old, ...recent]));

    // Refused while the application runs; nothing changed.
    const refused = await reset('--to-earliest');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      new RegExp(
        `^reset failed: ApplicationActiveError \\(APPLICATION_ACTIVE\\): application ${app} still has members \\(group state \\w+\\): stop every instance before resetting it\\n$`,
      ),
    );
    await stop(first);

    // Back one hour: the recent events only. The changelog goes; cleanUp() wipes the local state.
    const byDuration = await reset('--by-duration', 'PT1H');
    expect(byDuration).toEqual({
      code: 0,
      stderr: '',
      stdout: [
        `Reset application ${app}.`,
        'Input offsets committed (topic-partition: before -> after):',
        `  ${input}-0: 500 -> 300`,
        `  ${input}-1: 500 -> 300`,
        `Internal topics deleted: ${changelog}`,
        '',
      ].join('\n'),
    });
    const admin = await ctx.admin();
    await waitFor(async () => !(await admin.listTopics()).includes(changelog), 30_000, 'deleted');
    const second = await start(true);
    await runUntil(second, 400);
    expect(storeContents<OrderStats>(second, 'stats-store')).toEqual(truthOf(recent));
    await stop(second);

    // A dry run changes nothing.
    const dryRun = await reset('--to-latest', '--dry-run', '--state-dir', stateDir);
    expect(dryRun.stdout).toBe(
      [
        `Dry run for application ${app}: nothing was changed.`,
        'Input offsets that would be committed (topic-partition: before -> after):',
        `  ${input}-0: 500 -> 500`,
        `  ${input}-1: 500 -> 500`,
        `Internal topics that would be deleted: ${changelog}`,
        `Local state that would be deleted: the task directories of ${join(stateDir, app)}`,
        '',
      ].join('\n'),
    );
    expect(
      readdirSync(join(stateDir, app))
        .filter((d) => /^\d+_\d+$/.test(d))
        .sort(),
    ).toEqual(['0_0', '0_1']);

    // Back to the earliest offsets, the local state deleted by the tool: everything again.
    const earliest = await reset('--to-earliest', '--state-dir', stateDir);
    expect(earliest.code).toBe(0);
    expect(earliest.stdout).toBe(
      [
        `Reset application ${app}.`,
        'Input offsets committed (topic-partition: before -> after):',
        `  ${input}-0: 500 -> 0`,
        `  ${input}-1: 500 -> 0`,
        `Internal topics deleted: ${changelog}`,
        `Local state deleted: the task directories of ${join(stateDir, app)}`,
        '',
      ].join('\n'),
    );
    expect(readdirSync(join(stateDir, app)).filter((d) => /^\d+_\d+$/.test(d))).toEqual([]);
    await waitFor(async () => !(await admin.listTopics()).includes(changelog), 30_000, 'deleted');
    const third = await start();
    await runUntil(third, 1000);
    expect(storeContents<OrderStats>(third, 'stats-store')).toEqual(truthOf([...old, ...recent]));
  });
  // KIP-1071 needs @platformatic/kafka: run with NEST_STREAMS_CLIENT=@platformatic/kafka.
  (streamsClient() === '@platformatic/kafka' ? it : it.skip)(
    'refuses a streams group (KIP-1071), whose members the classic DescribeGroups cannot see',
    async () => {
      const input = await ctx.createTopic(ctx.topicName('reset-streams-in'), 1);
      const streamsApp = `${app}-kip1071`;
      const streams = new KafkaStreams(
        statsTopology(input),
        {
          applicationId: streamsApp,
          bootstrapServers: brokers(),
          kafkaClient: '@platformatic/kafka',
          groupProtocol: 'streams',
          stateDir,
        },
        { logger: quiet },
      );
      running.push(streams);
      await streams.start();
      await waitFor(() => streams.state === KafkaStreamsState.RUNNING, 90_000, 'RUNNING');
      for (const client of ['kafkajs', '@platformatic/kafka']) {
        const refused = await nestStreams([
          'reset',
          '--application-id',
          streamsApp,
          '--input-topics',
          input,
          '--bootstrap-server',
          brokers().join(','),
          '--client',
          client,
        ]);
        expect(refused).toEqual({
          code: 1,
          stdout: '',
          stderr: `reset failed: UnsupportedGroupTypeError (UNSUPPORTED_GROUP_TYPE): application ${streamsApp}'s group is a streams group: nest-streams reset resets classic groups only (use Kafka's kafka-streams-application-reset)\n`,
        });
      }
      expect(streams.state).toBe(KafkaStreamsState.RUNNING);
    },
  );
});

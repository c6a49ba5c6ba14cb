import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  KafkaStreams,
  KafkaStreamsState,
  StreamThreadExceptionResponse,
} from '@nest-streams/streams';
import { waitFor } from '../cluster/cluster-harness';
import { brokers, KafkaTestContext } from '../support/kafka-test-context';
import { storeContents } from '../support/store-contents';
import { statsTopology, type OrderStats } from './stats-topology';
import { streamsClient } from '../support/streams-client';

const quiet = { info: () => undefined, warn: () => undefined };

function readAll(streams: KafkaStreams): Map<string, OrderStats> {
  return storeContents<OrderStats>(streams, 'stats-store');
}

/**
 * `REPLACE_THREAD` from the uncaught-exception handler: the failed thread's tasks close dirty,
 * a new thread takes them over from the last commit, and under exactly-once the result is
 * exact, as if the failures never happened.
 */
describe('uncaught exceptions answered with REPLACE_THREAD', () => {
  const ctx = new KafkaTestContext();
  const stateDir = mkdtempSync(join(tmpdir(), 'replace-thread-'));
  afterAll(async () => {
    await ctx.cleanup();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('replaces the thread after each failure and still counts every event exactly once', async () => {
    const input = await ctx.createTopic(ctx.topicName('events'), 3);
    const events = Array.from({ length: 3000 }, (_, i) => ({
      userId: `user-${i % 40}`,
      amount: (i % 9) + 1,
    }));
    const truth = new Map<string, OrderStats>();
    for (const e of events) {
      const t = truth.get(e.userId) ?? { count: 0, sum: 0 };
      truth.set(e.userId, { count: t.count + 1, sum: t.sum + e.amount });
    }
    const streams = new KafkaStreams(
      statsTopology(input, { failOnKey: 'user-7', failures: 2 }),
      {
        applicationId: ctx.applicationId,
        bootstrapServers: brokers(),
        kafkaClient: streamsClient(),
        stateDir,
        processingGuarantee: 'exactly_once_v2',
        commitIntervalMs: 100,
      },
      { logger: quiet },
    );
    const handled: string[] = [];
    streams.setUncaughtExceptionHandler((error) => {
      handled.push(error.message);
      return StreamThreadExceptionResponse.REPLACE_THREAD;
    });
    const states: KafkaStreamsState[] = [];
    streams.onStateChange((state) => states.push(state));
    const producer = ctx.kafka.producer();
    try {
      await streams.start();
      await waitFor(async () => streams.state === KafkaStreamsState.RUNNING, 60_000, 'RUNNING');
      await producer.connect();
      await producer.send({
        topic: input,
        messages: events.map((e) => ({
          key: e.userId,
          value: JSON.stringify(e),
        })),
      });
      await waitFor(
        async () =>
          streams.state === KafkaStreamsState.RUNNING &&
          JSON.stringify([...readAll(streams)].sort()) === JSON.stringify([...truth].sort()),
        90_000,
        'exact totals after the replaced threads',
      );
      expect(readAll(streams)).toEqual(truth);
      expect(handled).toHaveLength(2);
      expect(handled[0]).toContain('poison key user-7');
      // Each replacement goes through REBALANCING and back to RUNNING; never ERROR.
      expect(
        states.filter((s) => s === KafkaStreamsState.REBALANCING).length,
      ).toBeGreaterThanOrEqual(2);
      expect(states).not.toContain(KafkaStreamsState.ERROR);
      expect(streams.state).toBe(KafkaStreamsState.RUNNING);
    } finally {
      await producer.disconnect();
      await streams.close();
    }
  });
});

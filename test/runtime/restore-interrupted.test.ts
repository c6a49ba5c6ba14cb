/**
 * A client closed while its tasks restore (a SIGTERM during a rolling update, or a rebalance
 * taking a restoring task away) stops the restore at once instead of finishing it, and keeps
 * what the restore wrote: its task closes with a checkpoint of the last changelog batch written,
 * as Kafka Streams checkpoints a restoring task it closes. The next start restores only the
 * rest. Deterministic: the close is called from the restore listener's first `onBatchRestored`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  KafkaStreams,
  KafkaStreamsState,
  QueryableStoreTypes,
  StoreQueryParameters,
} from '@nest-streams/streams';
import { brokers, KafkaTestContext } from '../support/kafka-test-context';
import { waitFor } from '../support/wait-for';
import { statsTopology, type OrderStats } from './stats-topology';
import { streamsClient } from '../support/streams-client';

const PARTITIONS = 2;
const USERS = 300;
const quiet = { info: () => undefined, warn: () => undefined };

describe('a close while the tasks restore', () => {
  const ctx = new KafkaTestContext();
  const stateDir = mkdtempSync(join(tmpdir(), 'restore-interrupted-'));
  afterAll(async () => {
    await ctx.cleanup();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('stops the restore, checkpoints what it wrote, and the next start restores only the rest', async () => {
    const input = await ctx.createTopic(ctx.topicName('events'), PARTITIONS);
    const producer = ctx.kafka.producer({ idempotent: true });
    await producer.connect();
    await producer.send({
      topic: input,
      messages: Array.from({ length: USERS }, (_, i) => ({
        key: `user-${i}`,
        value: JSON.stringify({ userId: `user-${i}`, amount: i }),
      })),
    });
    await producer.disconnect();
    const config = {
      applicationId: ctx.applicationId,
      bootstrapServers: brokers(),
      kafkaClient: streamsClient(),
      stateDir,
      commitIntervalMs: 200,
    };
    const params = StoreQueryParameters.fromNameAndType(
      'stats-store',
      QueryableStoreTypes.keyValueStore<string, OrderStats>(),
    );

    // Build the changelog, then start again on an empty state directory: a full restore.
    const builder = new KafkaStreams(statsTopology(input), config, { logger: quiet });
    await builder.start();
    await waitFor(() => builder.metrics().processed === USERS, 60_000, 'every event processed');
    const before = new Map([...builder.store(params).all()].map((kv) => [kv.key, kv.value]));
    expect(before.size).toBe(USERS);
    await builder.close();
    rmSync(join(stateDir, ctx.applicationId), { recursive: true, force: true });

    // Closed from the first batch restored, before any partition's restore could end.
    const interrupted = new KafkaStreams(statsTopology(input), config, { logger: quiet });
    let first: { partition: number; last: number } | undefined;
    const ended: number[] = [];
    const states: string[] = [];
    let closing: Promise<void> | undefined;
    interrupted.onStateChange((state) => states.push(state));
    interrupted.setGlobalStateRestoreListener({
      onBatchRestored: ({ partition }, _store, batchEndOffset) => {
        first ??= { partition, last: batchEndOffset };
        closing ??= interrupted.close();
      },
      onRestoreEnd: ({ partition }) => void ended.push(partition),
    });
    await interrupted.start();
    await waitFor(() => closing !== undefined, 60_000, 'a batch restored');
    await closing;
    expect(interrupted.state).toBe(KafkaStreamsState.NOT_RUNNING);
    expect(states).not.toContain(KafkaStreamsState.RUNNING);
    // The close stopped the restores: the one that called it never ended (closing after every
    // restore ended would have ended it too).
    expect(ended).not.toContain(first!.partition);

    // The next start resumes that partition after its last batch (nothing left: no restore).
    const restarted = new KafkaStreams(statsTopology(input), config, { logger: quiet });
    const starts = new Map<number, { start: number; end: number }>();
    restarted.setGlobalStateRestoreListener({
      onRestoreStart: ({ partition }, _store, start, end) => starts.set(partition, { start, end }),
    });
    await restarted.start();
    await waitFor(() => restarted.state === KafkaStreamsState.RUNNING, 60_000, 'RUNNING');
    const ends = await ctx
      .admin()
      .then((admin) => admin.fetchTopicOffsets(`${ctx.applicationId}-stats-store-changelog`));
    const end = Number(ends.find((o) => o.partition === first!.partition)!.high);
    if (first!.last + 1 >= end) expect(starts.has(first!.partition)).toBe(false);
    else expect(starts.get(first!.partition)).toEqual({ start: first!.last + 1, end });
    const after = new Map([...restarted.store(params).all()].map((kv) => [kv.key, kv.value]));
    expect(after).toEqual(before);
    await restarted.close();
  });
});

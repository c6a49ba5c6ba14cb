/**
 * A task whose store is still restoring holds partial state: a query that reads it would answer
 * "not found" for keys not restored yet — a wrong answer (Kafka Streams' stale-store reads of a
 * restoring task have this defect). Deterministic: the queries run inside the restore listener's
 * `onRestoreStart`, when the task's store is open and still empty, and must be refused with a
 * retriable error by every read path (`store()` with and without stale stores, the interactive
 * query API v2 with and without `requireActive`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DefaultStreamPartitioner,
  FailureReason,
  InvalidStateStoreError,
  KafkaStreams,
  KafkaStreamsState,
  KeyQuery,
  QueryableStoreTypes,
  StoreQueryParameters,
  type QueryResult,
} from '@nest-streams/streams';
import { brokers, KafkaTestContext } from '../support/kafka-test-context';
import { waitFor } from '../support/wait-for';
import { statsTopology, type OrderStats } from './stats-topology';
import { streamsClient } from '../support/streams-client';

const PARTITIONS = 2;
const USERS = 40;
const quiet = { info: () => undefined, warn: () => undefined };

/** What one read path answered while the key's partition was restoring. */
type Outcome =
  | { kind: 'value'; value: unknown }
  | { kind: 'error'; code: string; retriable: boolean }
  | { kind: 'iq'; result: QueryResult<unknown> | undefined };

function attempt(read: () => unknown): Outcome {
  try {
    return { kind: 'value', value: read() };
  } catch (error) {
    if (error instanceof InvalidStateStoreError) {
      return { kind: 'error', code: error.code, retriable: error.retriable };
    }
    throw error;
  }
}

describe('queries while a store restores', () => {
  const ctx = new KafkaTestContext();
  const stateDir = mkdtempSync(join(tmpdir(), 'restoring-queries-'));
  afterAll(async () => {
    await ctx.cleanup();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('never answer "not found" from a partition that is still restoring', async () => {
    const input = await ctx.createTopic(ctx.topicName('events'), PARTITIONS);
    const users = Array.from({ length: USERS }, (_, i) => `user-${i}`);
    const producer = ctx.kafka.producer({ idempotent: true });
    await producer.connect();
    await producer.send({
      topic: input,
      messages: users.map((userId) => ({
        key: userId,
        value: JSON.stringify({ userId, amount: 2 }),
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

    const produced = (await (await ctx.admin()).fetchTopicOffsets(input)).reduce(
      (n, p) => n + Number(p.high),
      0,
    );
    expect(produced).toBe(USERS);
    const params = StoreQueryParameters.fromNameAndType(
      'stats-store',
      QueryableStoreTypes.keyValueStore<string, OrderStats>(),
    );

    // Build the changelog, then restart on an empty state directory: a full restore.
    const first = new KafkaStreams(statsTopology(input), config, { logger: quiet });
    await first.start();
    await waitFor(() => first.metrics().processed === USERS, 60_000, 'every event processed', {
      context: () => `state ${first.state}, metrics ${JSON.stringify(first.metrics())}`,
    });
    const before = new Map([...first.store(params).all()].map((kv) => [kv.key, kv.value]));
    expect(before.size).toBe(USERS);
    await first.close();
    rmSync(join(stateDir, ctx.applicationId), { recursive: true, force: true });

    const partitioner = new DefaultStreamPartitioner();
    const userOf = (partition: number) =>
      users.find((u) => partitioner.partition(Buffer.from(u, 'utf8'), PARTITIONS) === partition)!;
    const streams = new KafkaStreams(statsTopology(input), config, { logger: quiet });
    const seen: { partition: number; path: string; outcome: Outcome }[] = [];
    const pending: Promise<void>[] = [];
    streams.setGlobalStateRestoreListener({
      onRestoreStart: ({ partition }, storeName, start, end) => {
        expect(end).toBeGreaterThan(start); // something to restore: the store is empty now
        const key = userOf(partition);
        const record = (path: string, outcome: Outcome): void => {
          seen.push({ partition, path, outcome });
        };
        record(
          'store()',
          attempt(() => streams.store(params).get(key)),
        );
        record(
          'store() stale',
          attempt(() => streams.store(params.enableStaleStores()).get(key)),
        );
        record(
          'store() stale partition',
          attempt(() =>
            streams.store(params.enableStaleStores().withPartition(partition)).get(key),
          ),
        );
        for (const requireActive of [true, false]) {
          pending.push(
            streams
              .query({
                storeName,
                query: KeyQuery.withKey(key),
                partitions: [partition],
                requireActive,
              })
              .then((answer) =>
                record(`query requireActive=${requireActive}`, {
                  kind: 'iq',
                  result: answer.partitionResults[0],
                }),
              ),
          );
        }
      },
    });
    await streams.start();
    await waitFor(() => streams.state === KafkaStreamsState.RUNNING, 60_000, 'RUNNING');
    await Promise.all(pending);

    const refused = (code: string) => ({ kind: 'error', code, retriable: true });
    const notPresent = {
      kind: 'iq',
      result: expect.objectContaining({ success: false, failureReason: FailureReason.NOT_PRESENT }),
    };
    for (let partition = 0; partition < PARTITIONS; partition++) {
      const outcomes = Object.fromEntries(
        seen.filter((s) => s.partition === partition).map((s) => [s.path, s.outcome]),
      );
      expect(outcomes).toEqual({
        'store()': refused('STORE_MIGRATED'), // no queryable copy of the key's partition here
        'store() stale': refused('STORE_MIGRATED'),
        'store() stale partition': refused('STORE_MIGRATED'),
        'query requireActive=true': notPresent,
        'query requireActive=false': notPresent,
      });
    }

    // Once RUNNING, every key answers what the first instance held.
    const view = streams.store(params);
    for (const user of users) expect(view.get(user)).toEqual(before.get(user));
    await streams.close();
  });
});

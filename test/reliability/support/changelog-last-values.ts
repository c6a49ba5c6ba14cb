import { randomUUID } from 'node:crypto';
import type { Kafka } from 'kafkajs';

/** What a changelog topic holds at its end, as a restore from scratch would rebuild it. */
export interface ChangelogState<V> {
  /** The last committed value of every key (tombstoned keys absent). */
  readonly values: Map<string, V>;
  /** Committed records read. */
  readonly records: number;
}

/**
 * Reads a changelog topic from the beginning to its current end as a restoring task does
 * (read_committed: records of aborted transactions skipped) and keeps the last value of each
 * key. Under exactly-once this is what the stores hold once every transaction is committed:
 * a zombie's transaction that committed anyway leaves its stale values here, whichever
 * instance owns the task now. The end is reached when every partition's consumed position
 * (commit and abort markers included) reaches the high watermark read first.
 */
export async function readChangelogLastValues<V>(
  kafka: Kafka,
  topic: string,
  timeoutMs = 60_000,
): Promise<ChangelogState<V>> {
  const admin = kafka.admin();
  await admin.connect();
  const ends = new Map<number, number>();
  try {
    for (const p of await admin.fetchTopicOffsets(topic)) ends.set(p.partition, Number(p.high));
  } finally {
    await admin.disconnect();
  }
  const values = new Map<string, V>();
  let records = 0;
  const reached = new Map<number, number>();
  const done = (): boolean => [...ends].every(([p, high]) => (reached.get(p) ?? 0) >= high);

  const consumer = kafka.consumer({ groupId: `changelog-${randomUUID()}`, readUncommitted: false });
  let finished!: () => void;
  const allRead = new Promise<void>((resolve) => (finished = resolve));
  // Batches of markers only (or of aborted records only) reach no handler: their end is seen
  // here, as every batch's.
  consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
    reached.set(payload.partition, Number(payload.lastOffset) + 1);
    if (done()) finished();
  });
  await consumer.connect();
  let timer: NodeJS.Timeout | undefined;
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    if (done()) finished();
    await consumer.run({
      eachBatch: async ({ batch }) => {
        for (const message of batch.messages) {
          records++;
          const key = message.key!.toString('utf8');
          if (message.value === null) values.delete(key);
          else values.set(key, JSON.parse(message.value.toString('utf8')) as V);
        }
      },
    });
    await Promise.race([
      allRead,
      new Promise((_, reject) => {
        timer = setTimeout(() => {
          const where = [...ends].map(([p, high]) => `p${p} ${reached.get(p) ?? 0}/${high}`);
          reject(new Error(`reading ${topic} took over ${timeoutMs} ms: ${where.join(' ')}`));
        }, timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    await consumer.disconnect();
  }
  return { values, records };
}

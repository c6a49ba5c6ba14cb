import { randomUUID } from 'node:crypto';
import type { Kafka } from 'kafkajs';

/** Per-user totals of what a topic holds, and what the `seq` fields say about the producer. */
export interface TopicTruth {
  /** count and sum per user (sums in whole cents, converted back exactly). */
  readonly perUser: Map<string, { count: number; sum: number }>;
  /** Records read. */
  readonly records: number;
  /** Distinct `seq` values read. */
  readonly distinctSeqs: number;
  /** `seq` values in [0, expected) that the topic does not hold (lost on the producer side). */
  readonly missingSeqs: number[];
}

/**
 * Reads a topic of order events from the beginning to its current end (read_committed) and
 * returns the truth the application must agree with: the records that are really in the topic,
 * duplicates included.
 */
export async function readTopicTruth(
  kafka: Kafka,
  topic: string,
  expectedSeqs: number,
  timeoutMs = 60_000,
): Promise<TopicTruth> {
  const admin = kafka.admin();
  await admin.connect();
  const ends = new Map<number, number>();
  try {
    for (const p of await admin.fetchTopicOffsets(topic)) ends.set(p.partition, Number(p.high));
  } finally {
    await admin.disconnect();
  }
  const cents = new Map<string, { count: number; cents: number }>();
  const seqs = new Set<number>();
  let records = 0;
  const reached = new Map<number, number>();
  const done = () => [...ends].every(([p, high]) => (reached.get(p) ?? 0) >= high);

  const consumer = kafka.consumer({ groupId: `truth-${randomUUID()}`, readUncommitted: false });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    let finished!: () => void;
    const allRead = new Promise<void>((resolve) => (finished = resolve));
    if (done()) finished();
    await consumer.run({
      eachBatch: async ({ batch }) => {
        for (const message of batch.messages) {
          records++;
          const event = JSON.parse(message.value!.toString()) as {
            seq: number;
            userId: string;
            amount: number;
          };
          seqs.add(event.seq);
          const key = message.key!.toString();
          const t = cents.get(key) ?? { count: 0, cents: 0 };
          cents.set(key, { count: t.count + 1, cents: t.cents + Math.round(event.amount * 100) });
          reached.set(batch.partition, Number(message.offset) + 1);
        }
        if (done()) finished();
      },
    });
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        allRead,
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`reading ${topic} took over ${timeoutMs} ms`)),
            timeoutMs,
          );
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  } finally {
    await consumer.disconnect();
  }
  const perUser = new Map(
    [...cents].map(([user, t]) => [user, { count: t.count, sum: t.cents / 100 }] as const),
  );
  const missingSeqs: number[] = [];
  for (let seq = 0; seq < expectedSeqs; seq++) if (!seqs.has(seq)) missingSeqs.push(seq);
  return { perUser, records, distinctSeqs: seqs.size, missingSeqs };
}

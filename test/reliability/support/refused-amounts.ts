import type { Producer } from 'kafkajs';

/** An input record the order-stats aggregation refuses, and where it was written. */
export interface RefusedRecord {
  readonly key: string;
  readonly value: string;
  readonly partition: number;
  readonly offset: number;
  /** The aggregation's error message (the dead letter's `__streams.errors.message`). */
  readonly message: string;
}

/** What {@link sendWithRefusedAmounts} wrote: the exact stats per user, and the refused records. */
export interface RefusedAmountsFeed {
  /** Count and sum in cents per user, of the records the aggregation accepts. */
  readonly truth: Map<string, { count: number; cents: number }>;
  readonly refused: readonly RefusedRecord[];
}

/**
 * Writes `events` order events for `users` users to `topic`; every thousandth has the amount
 * 1e300, which the order-stats aggregation refuses (a sum it cannot keep exact in cents: it
 * throws a RangeError). Each refused record is sent alone, so its partition and offset are
 * known; the others go in batches between them.
 */
export async function sendWithRefusedAmounts(
  producer: Producer,
  topic: string,
  events: number,
  users: number,
): Promise<RefusedAmountsFeed> {
  const truth = new Map<string, { count: number; cents: number }>();
  const refused: RefusedRecord[] = [];
  let batch: { key: string; value: string }[] = [];
  for (let i = 0; i < events; i++) {
    const userId = `user-${String((i * 7) % users).padStart(3, '0')}`;
    if (i % 1_000 !== 999) {
      const cents = 10 * ((i % 9) + 1);
      const t = truth.get(userId) ?? { count: 0, cents: 0 };
      truth.set(userId, { count: t.count + 1, cents: t.cents + cents });
      batch.push({ key: userId, value: JSON.stringify({ userId, amount: cents / 100 }) });
      continue;
    }
    if (batch.length > 0) await producer.send({ topic, messages: batch });
    batch = [];
    const value = JSON.stringify({ userId, amount: 1e300 });
    const [meta] = await producer.send({ topic, messages: [{ key: userId, value }] });
    refused.push({
      key: userId,
      value,
      partition: meta.partition,
      offset: Number(meta.baseOffset),
      message: `amount 1e+300 of ${userId} cannot be summed exactly in cents`,
    });
  }
  if (batch.length > 0) await producer.send({ topic, messages: batch });
  return { truth, refused };
}

/** The sum over every series of `name` with `labels` in a Prometheus scrape. */
export function scrapedSum(scrape: string, name: string, labels: string): number {
  let sum = 0;
  for (const line of scrape.split('\n')) {
    if (!line.startsWith(`${name}{`) || !line.includes(labels)) continue;
    sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

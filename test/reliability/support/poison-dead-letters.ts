import { randomUUID } from 'node:crypto';
import type { Kafka } from 'kafkajs';

/** One record read back from a dead-letter topic. */
export interface DeadLetter {
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  /** Every header, decoded as UTF-8. */
  readonly headers: Record<string, string>;
}

/**
 * Reads a dead-letter topic from the beginning (read_committed: under exactly-once the
 * dead letters are part of the task's transactions) until `expected` records arrived and then
 * `quietMs` passed without another, so that an extra dead letter would be seen.
 */
export async function readDeadLetters(
  kafka: Kafka,
  topic: string,
  expected: number,
  options: { timeoutMs?: number; quietMs?: number } = {},
): Promise<DeadLetter[]> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const quietMs = options.quietMs ?? 3_000;
  const letters: DeadLetter[] = [];
  let lastArrival = Date.now();
  const consumer = kafka.consumer({
    groupId: `dead-letters-${randomUUID()}`,
    readUncommitted: false,
    maxBytesPerPartition: 4 * 1024 * 1024,
  });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        const headers: Record<string, string> = {};
        for (const [name, raw] of Object.entries(message.headers ?? {})) {
          if (raw !== undefined) headers[name] = raw.toString();
        }
        letters.push({ key: message.key, value: message.value, headers });
        lastArrival = Date.now();
      },
    });
    const deadline = Date.now() + timeoutMs;
    while (!(letters.length >= expected && Date.now() - lastArrival >= quietMs)) {
      if (Date.now() > deadline) {
        throw new Error(`${letters.length} of ${expected} dead letters after ${timeoutMs} ms`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    await consumer.disconnect();
  }
  return letters;
}

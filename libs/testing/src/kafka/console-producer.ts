// kafkajs with the engine's fixes: importing @nest-streams/streams installs them, before
// anything loads kafkajs.
import '@nest-streams/streams';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { Kafka, logLevel, Partitioners, type Message } from 'kafkajs';
import { BrokerToolError } from './broker-error';

/** How many lines go to the brokers in one send. */
const BATCH = 500;

/**
 * Splits one input line of {@link produceLines} into its record: the key up to the first
 * `separator`, the value after it (both UTF-8 strings). An empty line is no record.
 *
 * @throws BrokerToolError for a line without the separator (naming its number).
 */
export function recordOfLine(line: string, separator: string, lineNumber: number): Message | null {
  if (line.trim() === '') return null;
  const at = line.indexOf(separator);
  if (at < 0) {
    throw new BrokerToolError(
      `Line ${lineNumber} has no key: write <key>${separator}<value> (or set --key-separator).`,
    );
  }
  return { key: line.slice(0, at), value: line.slice(at + separator.length) };
}

/**
 * Sends one record per line of `input` to `topic`, as Kafka's console producer does with
 * `parse.key=true`: `<key><separator><value>`. Keys are placed as Java's producer places them
 * (murmur2 of the key's bytes), so the application's key routing finds them. Resolves with the
 * number of records sent once the brokers acknowledged every one.
 *
 * @throws BrokerToolError for a line without a key, or when the brokers cannot be reached or
 *   refuse the records (a topic that does not exist: create it first).
 */
export async function produceLines(
  brokers: readonly string[],
  topic: string,
  input: Readable,
  separator = ':',
): Promise<number> {
  const producer = new Kafka({
    clientId: 'nest-streams-kafka',
    brokers: [...brokers],
    logLevel: logLevel.NOTHING,
    retry: { retries: 2 },
  }).producer({
    createPartitioner: Partitioners.DefaultPartitioner,
    allowAutoTopicCreation: false,
  });
  let sent = 0;
  let pending: Message[] = [];
  const flush = async (): Promise<void> => {
    if (pending.length === 0) return;
    await producer.send({ topic, messages: pending, acks: -1 }).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      throw new BrokerToolError(`The brokers did not take the records for ${topic}: ${message}.`);
    });
    sent += pending.length;
    pending = [];
  };
  try {
    await producer.connect().catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      throw new BrokerToolError(
        `Cannot reach the Kafka brokers ${brokers.join(', ')} (${message}).`,
      );
    });
    let lineNumber = 0;
    for await (const line of createInterface({ input, crlfDelay: Infinity })) {
      const record = recordOfLine(line, separator, ++lineNumber);
      if (record) pending.push(record);
      if (pending.length >= BATCH) await flush();
    }
    await flush();
    return sent;
  } finally {
    await producer.disconnect().catch(() => undefined);
  }
}

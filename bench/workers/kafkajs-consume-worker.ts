/**
 * Child process: the ceiling. Consumes the whole input topic with a plain kafkajs consumer
 * (fresh group, `eachBatch`, one partition at a time, the same fetch settings as nest-streams'
 * stream thread) and does nothing with the records but count them and their value bytes.
 * Measures from `connect()` until the last record arrived; prints a {@link WorkerResult}.
 *
 * With `--pipe-topic P` it also produces every record it consumed, unchanged, to the same
 * partition of P (acks from all replicas, batches of up to 1,000 records sent one after another
 * as nest-streams' record collector does) and measures until the last send was acknowledged:
 * the ceiling of a kafkajs processor that reads its input and writes as many records as it
 * read, with no processing, serdes or state at all.
 *
 *   node --import tsx bench/workers/kafkajs-consume-worker.ts --bootstrap-servers H:P
 *     --input-topic T --group-id G --timeout-ms 600000 [--pipe-topic P]
 */
// kafkajs as nest-streams runs it: the engine installs its kafkajs fixes when it loads.
import '@nest-streams/streams';
import { Kafka, logLevel, type Message } from 'kafkajs';
import { emitResult, endOffsets, peakRssMb, requiredOptions } from './worker-support';

/** Records per `sendBatch`, as the record collector's `maxBatchRecords`. */
const PIPE_BATCH = 1_000;

async function main(): Promise<void> {
  const args = requiredOptions(
    ['bootstrap-servers', 'input-topic', 'group-id', 'timeout-ms'],
    ['pipe-topic'],
  );
  const topic = args['input-topic'];
  const kafka = new Kafka({
    clientId: args['group-id'],
    brokers: args['bootstrap-servers'].split(','),
    logLevel: logLevel.ERROR,
  });
  const admin = kafka.admin();
  await admin.connect();
  const ends = await endOffsets(admin, topic);
  await admin.disconnect();
  const total = [...ends.values()].reduce((a, b) => a + b, 0);

  const consumer = kafka.consumer({
    groupId: args['group-id'],
    sessionTimeout: 45_000,
    heartbeatInterval: 3_000,
    maxWaitTimeInMs: 500,
    allowAutoTopicCreation: false,
  });
  const pipeTopic = args['pipe-topic'];
  const producer = pipeTopic ? kafka.producer({ allowAutoTopicCreation: false }) : undefined;
  let sending: Promise<unknown> = Promise.resolve();
  let produced = 0;
  let records = 0;
  let bytes = 0;
  let finish: (() => void) | undefined;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const timeout = setTimeout(() => {
    process.stderr.write(`consumed ${records} of ${total} records before the timeout\n`);
    process.exit(1);
  }, Number(args['timeout-ms']));

  const started = performance.now();
  await producer?.connect();
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  await consumer.run({
    autoCommit: false,
    partitionsConsumedConcurrently: 1,
    eachBatch: async ({ batch }) => {
      for (const message of batch.messages) bytes += message.value?.length ?? 0;
      if (producer && pipeTopic) {
        for (let from = 0; from < batch.messages.length; from += PIPE_BATCH) {
          const messages: Message[] = batch.messages
            .slice(from, from + PIPE_BATCH)
            .map((m) => ({ key: m.key, value: m.value, partition: batch.partition }));
          sending = sending.then(async () => {
            await producer.sendBatch({ acks: -1, topicMessages: [{ topic: pipeTopic, messages }] });
            produced += messages.length;
          });
        }
      }
      records += batch.messages.length;
      if (records >= total) finish?.();
    },
  });
  await done;
  await sending;
  const seconds = (performance.now() - started) / 1000;
  const peak = peakRssMb();
  clearTimeout(timeout);
  await consumer.disconnect();
  await producer?.disconnect();
  emitResult({ records, seconds, peakRssMb: peak, details: { bytes, produced } });
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`kafkajs-consume-worker failed: ${String(error)}\n`);
    process.exit(1);
  },
);

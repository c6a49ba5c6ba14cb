/**
 * Child process: the @platformatic/kafka ceiling, as kafkajs-consume-worker.ts is kafkajs'.
 * Consumes the whole input topic with a plain @platformatic/kafka `Consumer` (fresh group, its
 * messages stream from the earliest offsets, no autocommit, read_committed, the fetch sizes
 * and wait of the engine's platformatic reader: 50 MiB per fetch, 10 MiB per partition,
 * 500 ms) and does nothing with the records but count them and their value bytes (Buffers: no
 * deserializer). Measures from `consume()` (which connects and joins) until the last record
 * arrived; prints a {@link WorkerResult}. The end offsets are read first by another consumer
 * instance, so the timed one starts with no connection, as kafkajs' does.
 *
 * With `--pipe-topic P` it also produces every record it consumed, unchanged, to the same
 * partition of P with a plain `Producer` (acks from all replicas, not idempotent, as the
 * kafkajs ceiling's; batches of up to 1,000 records sent one after another, a batch closed at
 * 1,000 records or at the end of a burst of `data` events) and measures until the last send
 * was acknowledged.
 *
 *   node --import tsx bench/workers/platformatic-consume-worker.ts --bootstrap-servers H:P
 *     --input-topic T --group-id G --timeout-ms 600000 [--pipe-topic P]
 */
import {
  Consumer,
  MessagesStreamModes,
  Producer,
  type Message,
  type MessageToProduce,
} from '@platformatic/kafka';
import { emitResult, peakRssMb, requiredOptions } from './worker-support';

/** Records per `send`, as the record collector's `maxBatchRecords`. */
const PIPE_BATCH = 1_000;

async function main(): Promise<void> {
  const args = requiredOptions(
    ['bootstrap-servers', 'input-topic', 'group-id', 'timeout-ms'],
    ['pipe-topic'],
  );
  const topic = args['input-topic'];
  const groupId = args['group-id'];
  const connection = {
    clientId: groupId,
    bootstrapBrokers: args['bootstrap-servers'].split(','),
  };
  const total = await inputRecords(connection, `${groupId}-probe`, topic);

  const consumer = new Consumer({
    ...connection,
    groupId,
    sessionTimeout: 45_000,
    heartbeatInterval: 3_000,
    maxWaitTime: 500,
    maxBytes: 52_428_800,
    maxBytesPerPartition: 10_485_760,
  });
  const pipeTopic = args['pipe-topic'];
  const producer = pipeTopic ? new Producer({ ...connection, acks: -1 }) : undefined;
  let sending: Promise<unknown> = Promise.resolve();
  let sendFailure: unknown;
  let produced = 0;
  let sends = 0;
  let pending: MessageToProduce[] = [];
  let flushScheduled = false;
  const flush = (): void => {
    flushScheduled = false;
    if (!producer || pending.length === 0) return;
    const messages = pending;
    pending = [];
    sending = sending.then(async () => {
      await producer.send({ messages, acks: -1 });
      produced += messages.length;
      sends++;
    });
    sending.catch((error: unknown) => (sendFailure ??= error));
  };
  let records = 0;
  let bytes = 0;
  let finish: (() => void) | undefined;
  let fail: ((error: unknown) => void) | undefined;
  const done = new Promise<void>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  const timeout = setTimeout(() => {
    process.stderr.write(`consumed ${records} of ${total} records before the timeout\n`);
    process.exit(1);
  }, Number(args['timeout-ms']));

  const started = performance.now();
  const stream = await consumer.consume({
    topics: [topic],
    mode: MessagesStreamModes.EARLIEST,
    autocommit: false,
  });
  stream.on('error', (error: Error) => fail?.(error));
  stream.on('data', (message: Message) => {
    bytes += message.value?.length ?? 0;
    records++;
    if (pipeTopic) {
      pending.push({
        topic: pipeTopic,
        key: message.key,
        value: message.value,
        partition: message.partition,
      });
      if (pending.length >= PIPE_BATCH) flush();
      else if (!flushScheduled) {
        flushScheduled = true;
        setImmediate(flush);
      }
    }
    if (records >= total) finish?.();
  });
  await done;
  flush();
  await sending.catch(() => undefined);
  if (sendFailure) throw sendFailure;
  const seconds = (performance.now() - started) / 1000;
  const peak = peakRssMb();
  clearTimeout(timeout);
  await stream.close();
  await consumer.close(true);
  await producer?.close();
  // sends: how well the bursts of `data` events filled the batches.
  emitResult({ records, seconds, peakRssMb: peak, details: { bytes, produced, sends } });
}

/** The input's records: the sum of its end offsets, read by a consumer of its own. */
async function inputRecords(
  connection: { clientId: string; bootstrapBrokers: string[] },
  groupId: string,
  topic: string,
): Promise<number> {
  const probe = new Consumer({ ...connection, groupId });
  try {
    const offsets = await probe.listOffsets({ topics: [topic] });
    return (offsets.get(topic) ?? []).reduce((sum, end) => sum + Number(end), 0);
  } finally {
    await probe.close(true);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(
      `platformatic-consume-worker failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);

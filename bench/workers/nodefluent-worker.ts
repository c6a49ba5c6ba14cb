/**
 * Child process: nodefluent `kafka-streams` 5.0.0 counting events per user with
 * `countByKey` into its in-memory `KStorage` (it has no persistent stores and no changelog),
 * through its native client (node-rdkafka; its kafka-node client cannot talk to Kafka 4).
 * Measures from `start()` until every input record went through the count; dumps
 * `user\tcount` lines for the harness to check.
 *
 *   node --import tsx bench/workers/nodefluent-worker.ts --bootstrap-servers H:P
 *     --input-topic T --group-id G --dump-file F --timeout-ms 600000
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { NODEFLUENT_PEER_DIR } from '../harness/nodefluent-peer';
import { emitResult, endOffsets, peakRssMb, requiredOptions } from './worker-support';

/** The part of nodefluent's API used here (its own typings are not resolvable from here). */
interface NodefluentMessage {
  readonly key: Buffer | null;
}
interface NodefluentStream {
  map(fn: (message: NodefluentMessage) => { key: string }): NodefluentStream;
  countByKey(key: string, countFieldName: string): NodefluentStream;
  forEach(fn: () => void): void;
  start(): Promise<void>;
  getStorage(): { state: Record<string, number> };
}
interface NodefluentStreams {
  getKStream(topic: string): NodefluentStream;
  on(event: 'error', listener: (error: unknown) => void): void;
  closeAll(): Promise<unknown>;
}
interface NodefluentModule {
  KafkaStreams: new (config: Record<string, unknown>) => NodefluentStreams;
}

async function main(): Promise<void> {
  const args = requiredOptions([
    'bootstrap-servers',
    'input-topic',
    'group-id',
    'dump-file',
    'timeout-ms',
  ]);
  const topic = args['input-topic'];
  const admin = new Kafka({
    clientId: args['group-id'],
    brokers: args['bootstrap-servers'].split(','),
    logLevel: logLevel.ERROR,
  }).admin();
  await admin.connect();
  const total = [...(await endOffsets(admin, topic)).values()].reduce((a, b) => a + b, 0);
  await admin.disconnect();

  const load = createRequire(join(NODEFLUENT_PEER_DIR, 'package.json'));
  const { KafkaStreams } = load('kafka-streams') as NodefluentModule;
  const streams = new KafkaStreams({
    noptions: {
      'metadata.broker.list': args['bootstrap-servers'],
      'group.id': args['group-id'],
      'client.id': args['group-id'],
      event_cb: true,
    },
    tconf: { 'auto.offset.reset': 'earliest' },
  });
  let failure: unknown;
  streams.on('error', (error) => {
    failure ??= error;
  });
  const stream = streams.getKStream(topic);
  let records = 0;
  let finish: (() => void) | undefined;
  const done = new Promise<void>((resolve) => (finish = resolve));
  stream
    .map((message) => ({ key: message.key?.toString() ?? '' }))
    .countByKey('key', 'count')
    .forEach(() => {
      records++;
      if (records === total) finish?.();
    });
  const timeout = setTimeout(() => {
    process.stderr.write(
      `counted ${records} of ${total} records before the timeout (${String(failure)})\n`,
    );
    process.exit(1);
  }, Number(args['timeout-ms']));
  const started = performance.now();
  await stream.start();
  await done;
  const seconds = (performance.now() - started) / 1000;
  const peak = peakRssMb();
  clearTimeout(timeout);
  const state = stream.getStorage().state;
  const lines = Object.entries(state).map(([user, count]) => `${user}\t${count}\n`);
  writeFileSync(args['dump-file'], lines.join(''));
  await streams.closeAll();
  emitResult({ records, seconds, peakRssMb: peak, storeEntries: lines.length });
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`nodefluent-worker failed: ${String(error)}\n`);
    process.exit(1);
  },
);

/**
 * Child process: runs one benchmark topology on nest-streams (`KafkaStreams`) and prints a
 * {@link WorkerResult} line. Modes:
 * - `aggregate` / `windowed`: from `start()` until the group has committed every input record;
 * - `restore` (the aggregate topology): from `start()` until RUNNING (stores restored).
 * Then it dumps its final store (TSV, as the harness's truth) read through the task stores.
 *
 *   node --import tsx bench/workers/streams-worker.ts --mode aggregate --bootstrap-servers H:P
 *     --input-topic T --application-id A --state-dir D --guarantee at_least_once
 *     --commit-interval-ms 1000 --cache-max-bytes 10485760 --dump-file F --timeout-ms 600000
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { PerformanceObserver } from 'node:perf_hooks';
import { Kafka, logLevel } from 'kafkajs';
import { KafkaStreams } from '../../libs/streams/src/runtime/kafka-streams';
import {
  KafkaStreamsState,
  StreamThreadExceptionResponse,
} from '../../libs/streams/src/runtime/kafka-streams-state';
import type { ProcessingGuarantee } from '../../libs/streams/src/runtime/streams-config';
import type { ReadOnlyKeyValueStore } from '../../libs/streams/src/state/key-value-store';
import type { ValueAndTimestamp } from '../../libs/streams/src/state/value-and-timestamp';
import type { ReadOnlyWindowStore } from '../../libs/streams/src/state/window-store';
import { aggregateTopology } from '../topologies/aggregate-topology';
import { STATS_STORE, WINDOWED_STORE, type BenchStats } from '../topologies/bench-types';
import { windowedTopology } from '../topologies/windowed-topology';
import {
  committedAll,
  emitResult,
  endOffsets,
  peakRssMb,
  requiredOptions,
  sleep,
} from './worker-support';

const quiet = {
  info: (): void => undefined,
  warn: (message: string): void => {
    process.stderr.write(`[nest-streams] ${message}\n`);
  },
};

async function main(): Promise<void> {
  const args = requiredOptions([
    'mode',
    'bootstrap-servers',
    'input-topic',
    'application-id',
    'state-dir',
    'guarantee',
    'commit-interval-ms',
    'cache-max-bytes',
    'dump-file',
    'timeout-ms',
  ]);
  const mode = args.mode;
  if (mode !== 'aggregate' && mode !== 'windowed' && mode !== 'restore') {
    throw new Error(`unknown mode ${mode}`);
  }
  const input = args['input-topic'];
  const groupId = args['application-id'];
  const timeoutMs = Number(args['timeout-ms']);
  const brokers = args['bootstrap-servers'].split(',');

  const admin = new Kafka({
    clientId: `${groupId}-probe`,
    brokers,
    logLevel: logLevel.ERROR,
  }).admin();
  await admin.connect();
  const ends = await endOffsets(admin, input);
  const inputRecords = [...ends.values()].reduce((a, b) => a + b, 0);

  const topology = mode === 'windowed' ? windowedTopology(input) : aggregateTopology(input);
  const streams = new KafkaStreams(
    topology,
    {
      applicationId: groupId,
      bootstrapServers: brokers,
      stateDir: args['state-dir'],
      processingGuarantee: args.guarantee as ProcessingGuarantee,
      commitIntervalMs: Number(args['commit-interval-ms']),
      statestoreCacheMaxBytes: Number(args['cache-max-bytes']),
    },
    { logger: quiet },
  );
  let failed: string | undefined;
  let restored = 0;
  streams.setGlobalStateRestoreListener({
    onRestoreEnd: (_partition, _store, total) => {
      restored += total;
    },
  });
  streams.setUncaughtExceptionHandler((error) => {
    failed ??= error.message;
    process.stderr.write(`[nest-streams] uncaught: ${error.stack ?? error.message}\n`);
    return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
  });
  let running = false;
  streams.onStateChange((now) => {
    if (now === KafkaStreamsState.RUNNING) running = true;
    if (now === KafkaStreamsState.ERROR || now === KafkaStreamsState.PENDING_ERROR) {
      failed ??= `state ${now}`;
    }
  });

  let gcMs = 0;
  const gcObserver = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMs += entry.duration;
  });
  gcObserver.observe({ entryTypes: ['gc'] });
  const deadline = Date.now() + timeoutMs;
  const cpuAtStart = process.cpuUsage();
  const started = performance.now();
  await streams.start();
  while (!running && !failed) {
    if (Date.now() > deadline) throw new Error(`not RUNNING within ${timeoutMs} ms`);
    await sleep(5);
  }
  if (mode !== 'restore') {
    while (!failed && !(await committedAll(admin, groupId, input, ends))) {
      if (Date.now() > deadline) throw new Error(`input not committed within ${timeoutMs} ms`);
      await sleep(100);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuAtStart);
  gcObserver.disconnect();
  const peak = peakRssMb();
  if (failed) throw new Error(`processing failed: ${failed}`);

  const entries =
    mode === 'windowed'
      ? await dumpWindowed(streams, args['dump-file'])
      : await dumpAggregate(streams, args['dump-file']);
  const processed = streams.metrics().processed;
  await streams.close();
  await admin.disconnect();
  emitResult({
    records: mode === 'restore' ? restored : inputRecords,
    seconds,
    peakRssMb: peak,
    storeEntries: entries,
    details: {
      processed,
      restored,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      gcSeconds: gcMs / 1000,
    },
  });
}

async function dumpAggregate(streams: KafkaStreams, file: string): Promise<number> {
  const out = createWriteStream(file);
  let entries = 0;
  for (const entry of streams.activeTasks()) {
    const store = entry.task.store(STATS_STORE) as unknown as
      ReadOnlyKeyValueStore<string, ValueAndTimestamp<BenchStats>> | undefined;
    if (!store) continue;
    for (const { key, value } of store.all()) {
      entries++;
      if (!out.write(`${key}\t${value.value.count}\t${value.value.sum}\n`))
        await once(out, 'drain');
    }
  }
  out.end();
  await once(out, 'finish');
  return entries;
}

async function dumpWindowed(streams: KafkaStreams, file: string): Promise<number> {
  const out = createWriteStream(file);
  let entries = 0;
  for (const entry of streams.activeTasks()) {
    const store = entry.task.store(WINDOWED_STORE) as unknown as
      ReadOnlyWindowStore<string, ValueAndTimestamp<number>> | undefined;
    if (!store) continue;
    for (const { key, value } of store.all()) {
      entries++;
      const line = `${key.key}\t${key.window.start}\t${value.value}\n`;
      if (!out.write(line)) await once(out, 'drain');
    }
  }
  out.end();
  await once(out, 'finish');
  return entries;
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(
      `streams-worker failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);

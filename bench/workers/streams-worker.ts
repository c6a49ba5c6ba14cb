/**
 * Child process: runs one benchmark topology on nest-streams (`KafkaStreams`) and prints a
 * {@link WorkerResult} line. Modes:
 * - `aggregate` / `windowed`: from `start()` until the group has committed every input record;
 * - `restore` (the aggregate topology): from `start()` until RUNNING (stores restored).
 * Then it dumps its final store (TSV, as the harness's truth) read through `store()`.
 *
 *   node --import tsx bench/workers/streams-worker.ts --mode aggregate --bootstrap-servers H:P
 *     --input-topic T --application-id A --state-dir D --guarantee at_least_once
 *     --commit-interval-ms 1000 --cache-max-bytes 10485760 --dump-file F --timeout-ms 600000
 *     [--kafka-client @platformatic/kafka] [--start-file S --release-file R]
 *     [--acceptable-recovery-lag N]
 *
 * `--kafka-client` sets the engine's `kafkaClient` (its default, kafkajs, when absent).
 * `--start-file` and `--release-file` (one of several instances of the application): once set up
 * the worker writes `<dump-file>.ready` and waits for S to exist before it starts (so that the
 * instances join the group together, before any holds state the others would first have to
 * catch up on); its store holds only its own partitions; after the dump it writes
 * `<dump-file>.done` and waits for R to exist before it closes, so that no instance leaves the
 * group (moving partitions) while another is still dumping.
 */
import { createWriteStream, existsSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { PerformanceObserver } from 'node:perf_hooks';
import {
  KafkaStreams,
  KafkaStreamsState,
  type ProcessingGuarantee,
  QueryableStoreTypes,
  StoreQueryParameters,
  StreamsError,
  StreamThreadExceptionResponse,
} from '@nest-streams/streams';
// After the engine, which installs its kafkajs fixes before kafkajs loads.
import { Kafka, logLevel } from 'kafkajs';
import { aggregateTopology } from '../topologies/aggregate-topology';
import { STATS_STORE, WINDOWED_STORE, type BenchStats } from '../topologies/bench-types';
import { windowedTopology } from '../topologies/windowed-topology';
import {
  committedAll,
  emitResult,
  endOffsets,
  kafkaClientConfig,
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
  const args = requiredOptions(
    [
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
    ],
    ['kafka-client', 'release-file', 'start-file', 'acceptable-recovery-lag'],
  );
  const client = kafkaClientConfig(args['kafka-client']);
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
      ...(args['acceptable-recovery-lag'] !== undefined && {
        acceptableRecoveryLag: Number(args['acceptable-recovery-lag']),
      }),
      ...client,
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
  let ranOnce = false;
  streams.onStateChange((now) => {
    running = now === KafkaStreamsState.RUNNING;
    ranOnce ||= running;
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
  const startFile = args['start-file'];
  if (startFile !== undefined) await barrier(`${args['dump-file']}.ready`, startFile, deadline);
  const cpuAtStart = process.cpuUsage();
  const started = performance.now();
  await streams.start();
  while (!ranOnce && !failed) {
    if (Date.now() > deadline) throw new Error(`not RUNNING within ${timeoutMs} ms`);
    await sleep(5);
  }
  const runningSeconds = (performance.now() - started) / 1000;
  const restoredAtRunning = restored;
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

  const dump = async (): Promise<number> => {
    // One of several instances may hold no active task: its share is empty.
    if (args['release-file'] !== undefined && streams.localTaskIds().active.length === 0) {
      writeFileSync(args['dump-file'], '');
      return 0;
    }
    return mode === 'windowed'
      ? dumpWindowed(streams, args['dump-file'])
      : dumpAggregate(streams, args['dump-file']);
  };
  const entries = await settledRead(dump, () => running && !failed, deadline);
  const { processed, commits, commitTimeMs } = streams.metrics();
  const release = args['release-file'];
  if (release !== undefined) await barrier(`${args['dump-file']}.done`, release, deadline);
  await streams.close();
  await admin.disconnect();
  emitResult({
    records: mode === 'restore' ? restored : inputRecords,
    seconds,
    peakRssMb: peak,
    storeEntries: entries,
    details: {
      processed,
      commits,
      commitSeconds: Number((commitTimeMs / 1000).toFixed(3)),
      restored,
      runningSeconds,
      restoredAtRunning,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      gcSeconds: gcMs / 1000,
      kafkaClient: client.kafkaClient,
    },
  });
}

async function dumpAggregate(streams: KafkaStreams, file: string): Promise<number> {
  const store = streams.store(
    StoreQueryParameters.fromNameAndType(
      STATS_STORE,
      QueryableStoreTypes.keyValueStore<string, BenchStats>(),
    ),
  );
  return writeLines(
    file,
    store.all(),
    ({ key, value }) => `${key}\t${value.count}\t${value.sum}\n`,
  );
}

async function dumpWindowed(streams: KafkaStreams, file: string): Promise<number> {
  const store = streams.store(
    StoreQueryParameters.fromNameAndType(
      WINDOWED_STORE,
      QueryableStoreTypes.windowStore<string, number>(),
    ),
  );
  return writeLines(
    file,
    store.all(),
    ({ key, value }) => `${key.key}\t${key.window.start}\t${value}\n`,
  );
}

/** One instance at a barrier of the harness: says it reached it, then waits until it opens. */
async function barrier(reached: string, opened: string, deadline: number): Promise<void> {
  writeFileSync(reached, '');
  while (!existsSync(opened)) {
    if (Date.now() > deadline) throw new Error(`${opened} did not appear before the deadline`);
    await sleep(10);
  }
}

/**
 * Runs `read` once the client is RUNNING, again after a retriable error (the group rebalancing,
 * a store moving: with several instances the last input can be committed before the group
 * settles), until `deadline`.
 */
async function settledRead<T>(
  read: () => Promise<T>,
  isRunning: () => boolean,
  deadline: number,
): Promise<T> {
  for (;;) {
    if (isRunning()) {
      try {
        return await read();
      } catch (error) {
        if (!(error instanceof StreamsError) || !error.retriable) throw error;
      }
    }
    if (Date.now() > deadline) throw new Error('the store could not be read before the deadline');
    await sleep(100);
  }
}

/** Writes one line per entry to `file`; resolves with the number of entries. */
async function writeLines<T>(
  file: string,
  entries: Iterable<T>,
  line: (entry: T) => string,
): Promise<number> {
  const out = createWriteStream(file);
  let count = 0;
  for (const entry of entries) {
    count++;
    if (!out.write(line(entry))) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return count;
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

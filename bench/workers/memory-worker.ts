/**
 * Child process of the `memory` scenario for nest-streams: runs the memory topology (`--stores`
 * stores over the input, every fifth a windowed count; RocksDB default settings or `--rocksdb
 * bounded` with a budget of `--rocksdb-memory-mb`) until the group has committed every input
 * record, reads every entry of every store back (`all()` through `KafkaStreams.store`), then
 * every key of every store twice by point lookup (`get`, `fetch(user, windowStart)`), checking
 * every value against the truths (`--truth-file`: counts, `--windowed-truth-file`: windows;
 * see memory-store-reads.ts), forces a GC (run it with `--expose-gc`), waits a second and
 * reports its resident memory (VmRSS) and peak (VmHWM).
 *
 *   node --expose-gc --import tsx bench/workers/memory-worker.ts --bootstrap-servers H:P
 *     --input-topic T --application-id A --state-dir D --commit-interval-ms 1000
 *     --cache-max-bytes 10485760 --stores 10 --rocksdb bounded --rocksdb-memory-mb 64
 *     --truth-file F --windowed-truth-file W --timeout-ms 300000 [--drop-input true]
 *     [--kafka-client @platformatic/kafka]
 *
 * `--drop-input true` consumes the same input but drops every record before the stores, which
 * stay empty, and makes the same reads, which find nothing: the baseline of the bounded check
 * (the process, the input, the truth, the reads and N open RocksDB instances, without their
 * data).
 */
import { readFileSync } from 'node:fs';
import { KafkaStreams, QueryableStoreTypes, StoreQueryParameters } from '@nest-streams/streams';
import {
  isWindowedStore,
  memoryStoreKinds,
  memoryStoreName,
  memoryTopology,
} from '../topologies/memory-topology';
import { boundedRocksDB } from './memory-config';
import { probeInput, startAndDrain } from './streams-drain';
import { readBackStores, readMemoryTruth, type MemoryStore } from './memory-store-reads';
import { rocksdbFootprint } from './rocksdb-footprint';
import { emitResult, kafkaClientConfig, requiredOptions, sleep } from './worker-support';

async function main(): Promise<void> {
  const args = requiredOptions(
    [
      'bootstrap-servers',
      'input-topic',
      'application-id',
      'state-dir',
      'commit-interval-ms',
      'cache-max-bytes',
      'stores',
      'rocksdb',
      'truth-file',
      'windowed-truth-file',
      'timeout-ms',
    ],
    ['rocksdb-memory-mb', 'drop-input', 'kafka-client'],
  );
  const client = kafkaClientConfig(args['kafka-client']);
  const dropInput = args['drop-input'] === 'true';
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  if (args.rocksdb !== 'default' && args.rocksdb !== 'bounded') {
    throw new Error(`--rocksdb must be default or bounded, got ${args.rocksdb}`);
  }
  const budgetMb = Number(args['rocksdb-memory-mb'] ?? 64);
  const stores = Number(args.stores);
  const input = args['input-topic'];
  const groupId = args['application-id'];
  const timeoutMs = Number(args['timeout-ms']);
  const brokers = args['bootstrap-servers'].split(',');
  const probe = await probeInput(brokers, groupId, input);
  const inputRecords = probe.records;

  const streams = new KafkaStreams(
    memoryTopology(input, stores, dropInput),
    {
      applicationId: groupId,
      bootstrapServers: brokers,
      stateDir: args['state-dir'],
      commitIntervalMs: Number(args['commit-interval-ms']),
      statestoreCacheMaxBytes: Number(args['cache-max-bytes']),
      ...(args.rocksdb === 'bounded' ? { rocksDBConfigSetter: boundedRocksDB(budgetMb) } : {}),
      ...client,
    },
    { logger: { info: () => undefined, warn: (m: string) => process.stderr.write(`${m}\n`) } },
  );
  const seconds = await startAndDrain(streams, probe, groupId, input, timeoutMs);

  const truth = await readMemoryTruth(args['truth-file'], args['windowed-truth-file']);
  const memoryStores: MemoryStore[] = [];
  for (let i = 0; i < stores; i++) {
    const name = memoryStoreName(i);
    memoryStores.push(
      isWindowedStore(i)
        ? {
            kind: 'windowed',
            name,
            store: streams.store(
              StoreQueryParameters.fromNameAndType(
                name,
                QueryableStoreTypes.windowStore<string, number>(),
              ),
            ),
          }
        : {
            kind: 'keyValue',
            name,
            store: streams.store(
              StoreQueryParameters.fromNameAndType(
                name,
                QueryableStoreTypes.keyValueStore<string, number>(),
              ),
            ),
          },
    );
  }
  const readBack = readBackStores(memoryStores, truth, !dropInput);
  gc();
  gc();
  await sleep(1000);
  const memory = process.memoryUsage();
  const rssMb = statusMb('VmRSS');
  const peakRssMb = statusMb('VmHWM');
  const footprint = rocksdbFootprint(streams.storeMetrics());
  await streams.close();
  emitResult({
    records: inputRecords,
    seconds,
    peakRssMb,
    storeEntries: readBack.entries,
    mismatches: readBack.mismatches,
    firstMismatch: readBack.firstMismatch,
    details: {
      rssMb,
      stores,
      windowedStores: memoryStoreKinds(stores).windowed,
      pointReads: readBack.pointReads,
      rocksdb: args.rocksdb,
      ...(args.rocksdb === 'bounded' && { rocksdbMemoryMb: budgetMb }),
      dropInput: String(dropInput),
      mallocArenaMax: process.env.MALLOC_ARENA_MAX ?? 'glibc default',
      kafkaClient: client.kafkaClient,
      rocksdbStores: footprint.stores,
      rocksdbCacheMb: footprint.blockCacheMb,
      rocksdbCachePinnedMb: footprint.blockCachePinnedMb,
      rocksdbMemTablesMb: footprint.memTablesMb,
      rocksdbTableReadersMb: footprint.tableReadersMb,
      heapUsedMb: memory.heapUsed / 2 ** 20,
      v8HeapMb: memory.heapTotal / 2 ** 20,
      externalMb: memory.external / 2 ** 20,
    },
  });
}

/** A /proc/self/status field (kB) in MiB. */
function statusMb(field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(
    readFileSync('/proc/self/status', 'utf8'),
  );
  if (!match) throw new Error(`no ${field} in /proc/self/status`);
  return Number(match[1]) / 1024;
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(
      `memory-worker failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);

/**
 * Store benchmark: the same seeded keys and values through every bytes-store engine.
 *
 *   npx tsx bench/store/store-bench.ts [--keys N] [--json FILE] [--restore-records N]
 *     [--single-get-sample N] [--value-size BYTES]
 *     [--engines in-memory,native-rocksdb,nxtedition-rocksdb]
 *
 * Per engine: batch put (putAll of 1000, then flush), one awaited get per key, getMany
 * prefetch in batches of 1000, synchronous get and getMany (where the engine has them), a full
 * range scan, 100-entry range scans, and a restore (records applied in write batches of 1000
 * into an empty store, as a changelog restore does, then the engine's flush). The
 * `native-rocksdb` engine (the project's addon over the system RocksDB) restores three ways:
 * `restore` with its default, the WAL off (flush = memtable flush); `restore-wal-on`; and
 * `restore-sst`, records collected in chunks of 250,000 and bulk-loaded through one sorted SST
 * file each. Prints a table; `--json` writes
 * `{"scenario":"store","params":{...},"results":[{"system":"<engine>:<operation>",...}]}`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Stores, type BytesStore, type BytesWrite } from '@nest-streams/streams';
import { restore, restoreModes } from './restore-modes';
import { buildBenchData, seededRandom, type BenchData } from './seeded-data';

/** Parameters of one run (written to the JSON as `params`). */
export interface StoreBenchParams {
  readonly keys: number;
  readonly valueSize: number;
  readonly batchSize: number;
  readonly restoreRecords: number;
  readonly singleGetSample: number;
  readonly rangeScans: number;
  readonly rangeLength: number;
  readonly seed: number;
  readonly engines: readonly string[];
}

/** One measured engine and operation. */
export interface StoreBenchResult {
  readonly system: string;
  readonly eventsPerSec: number;
  readonly seconds: number;
  readonly operations: number;
  readonly p50Ms?: number;
  readonly p99Ms?: number;
  /** Highest resident set size of the whole process while this engine ran. */
  readonly peakRssMb?: number;
}

export type EngineFactory = (root: string, name: string) => BytesStore;

const persistent: EngineFactory = (root, name) =>
  Stores.persistentKeyValueStore(name).get({ directory: join(root, name), configs: {} });

// Each engine as a task opens it: the bytes store its `Stores` supplier makes. Both RocksDB
// rows use the persistent supplier: the process's engine is the addon, or the fallback in a
// child started with NEST_STREAMS_ROCKSDB_DISABLE=1 (see ENGINE_ENV).
const ENGINES: Readonly<Record<string, EngineFactory>> = {
  'in-memory': (root, name) =>
    Stores.inMemoryKeyValueStore(name).get({ directory: join(root, name), configs: {} }),
  'native-rocksdb': persistent,
  'nxtedition-rocksdb': persistent,
};

/** The environment that selects each engine in its child process. */
const ENGINE_ENV: Readonly<Record<string, Record<string, string>>> = {
  'nxtedition-rocksdb': { NEST_STREAMS_ROCKSDB_DISABLE: '1' },
};

/**
 * Runs every selected engine in turn, each in its own child process (so one engine's memory
 * and native threads do not weigh on the next); resolves with one result per engine and
 * operation.
 */
export async function runStoreBench(params: StoreBenchParams): Promise<StoreBenchResult[]> {
  const results: StoreBenchResult[] = [];
  for (const engine of params.engines) {
    results.push(...(await runInChild(engine, params)));
  }
  return results;
}

/** Runs one engine in a child process with the same loader (tsx) and collects its results. */
async function runInChild(engine: string, params: StoreBenchParams): Promise<StoreBenchResult[]> {
  const root = mkdtempSync(join(tmpdir(), 'store-bench-child-'));
  const output = join(root, 'results.json');
  const args = [
    ...process.execArgv,
    __filename,
    ...['--keys', String(params.keys), '--value-size', String(params.valueSize)],
    ...['--restore-records', String(params.restoreRecords)],
    ...['--single-get-sample', String(params.singleGetSample)],
    ...['--range-scans', String(params.rangeScans), '--seed', String(params.seed)],
    ...['--engines', engine, '--in-process', 'true', '--json', output],
  ];
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(process.execPath, args, {
        stdio: ['ignore', 'ignore', 'inherit'],
        env: { ...process.env, ...ENGINE_ENV[engine] },
      });
      child.on('error', reject);
      child.on('exit', (exitCode, signal) => resolve(signal === null ? exitCode : -1));
    });
    if (code !== 0) {
      throw new Error(`engine ${engine} failed in its child process (exit ${code})`);
    }
    const report = JSON.parse(readFileSync(output, 'utf8')) as { results: StoreBenchResult[] };
    return report.results;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** Runs the selected engines in this process. */
export async function runStoreBenchInProcess(
  params: StoreBenchParams,
): Promise<StoreBenchResult[]> {
  const data = buildBenchData(params.keys, params.valueSize, params.seed);
  const root = mkdtempSync(join(tmpdir(), 'store-bench-'));
  const results: StoreBenchResult[] = [];
  try {
    for (const engine of params.engines) {
      const factory = ENGINES[engine];
      if (factory === undefined) {
        throw new Error(`unknown engine ${engine}; known: ${Object.keys(ENGINES).join(', ')}`);
      }
      results.push(...(await benchEngine(engine, factory, data, params, root)));
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return results;
}

async function benchEngine(
  engine: string,
  create: EngineFactory,
  data: BenchData,
  params: StoreBenchParams,
  root: string,
): Promise<StoreBenchResult[]> {
  const rss = startRssSampler();
  const measured: Omit<StoreBenchResult, 'peakRssMb'>[] = [];
  const record = (
    operation: string,
    operations: number,
    seconds: number,
    latenciesMs?: number[],
  ): void => {
    const latency = latenciesMs === undefined ? {} : percentiles(latenciesMs);
    measured.push({
      system: `${engine}:${operation}`,
      eventsPerSec: Math.round(operations / seconds),
      seconds: round(seconds, 3),
      operations,
      ...latency,
    });
    process.stderr.write(`  ${engine}:${operation} ${Math.round(operations / seconds)}/s\n`);
  };
  const { keys, writeOrder, readOrder } = data;
  const n = keys.length;
  const store = create(root, `${engine}-main`);
  await store.open();

  // Batch put: putAll of batchSize, one event-loop turn between batches, then flush.
  let start = performance.now();
  for (let offset = 0; offset < n; offset += params.batchSize) {
    store.putAll(batchOf(data, writeOrder, offset, Math.min(offset + params.batchSize, n)));
    await nextTurn();
  }
  await store.flush();
  record('put', n, seconds(start));

  // One awaited get per key (the slow path a store miss must avoid).
  const sample = Math.min(params.singleGetSample, n);
  const latencies = new Array<number>(sample);
  start = performance.now();
  for (let i = 0; i < sample; i++) {
    const began = performance.now();
    await store.getAsync(keys[readOrder[i]]);
    latencies[i] = performance.now() - began;
  }
  record('get-await', sample, seconds(start), latencies);

  // getMany prefetch in batches of batchSize.
  const batchLatencies: number[] = [];
  let found = 0;
  start = performance.now();
  for (let offset = 0; offset < n; offset += params.batchSize) {
    const began = performance.now();
    const values = await store.getManyAsync(keysOf(data, readOrder, offset, params.batchSize));
    batchLatencies.push(performance.now() - began);
    found += values.reduce((sum, value) => sum + (value === undefined ? 0 : 1), 0);
  }
  record('getMany', n, seconds(start), batchLatencies);
  if (found !== n) {
    throw new Error(`${engine}: getMany found ${found} of ${n} keys`);
  }

  if (store.capabilities.syncReads) {
    start = performance.now();
    for (let i = 0; i < n; i++) {
      store.get(keys[readOrder[i]]);
    }
    record('get-sync', n, seconds(start));

    start = performance.now();
    for (let offset = 0; offset < n; offset += params.batchSize) {
      store.getMany(keysOf(data, readOrder, offset, params.batchSize));
    }
    record('getMany-sync', n, seconds(start));

    start = performance.now();
    let scanned = 0;
    for (const entry of store.all()) {
      scanned += entry.value.length > 0 ? 1 : 0;
    }
    record('range-full-sync', scanned, seconds(start));
  }

  start = performance.now();
  const all = await store.rangeAsync(undefined, undefined);
  record('range-full-async', all.length, seconds(start));
  if (all.length !== n) {
    throw new Error(`${engine}: full scan returned ${all.length} of ${n} entries`);
  }

  // Short ranges from random keys, synchronous where supported.
  const random = seededRandom(params.seed + 1);
  const rangeLatencies: number[] = [];
  let entries = 0;
  start = performance.now();
  for (let i = 0; i < params.rangeScans; i++) {
    const first = Math.floor(random() * Math.max(1, n - params.rangeLength));
    const from = keys[first];
    const to = keys[Math.min(n - 1, first + params.rangeLength - 1)];
    const began = performance.now();
    if (store.capabilities.syncReads) {
      for (const entry of store.range(from, to)) {
        entries += entry.key.length > 0 ? 1 : 0;
      }
    } else {
      entries += (await store.rangeAsync(from, to)).length;
    }
    rangeLatencies.push(performance.now() - began);
  }
  record(`range-${params.rangeLength}`, entries, seconds(start), rangeLatencies);
  await store.destroy();

  for (const mode of restoreModes(engine, create)) {
    const seconds = await restore(mode, data, params, root, engine);
    record(mode.operation, params.restoreRecords, seconds);
  }

  const peakRssMb = rss.stop();
  return measured.map((result) => ({ ...result, peakRssMb }));
}

function batchOf(data: BenchData, order: Uint32Array, from: number, to: number): BytesWrite[] {
  const batch = new Array<BytesWrite>(to - from);
  for (let i = from; i < to; i++) {
    batch[i - from] = { key: data.keys[order[i]], value: data.value(order[i]) };
  }
  return batch;
}

function keysOf(data: BenchData, order: Uint32Array, offset: number, size: number): Buffer[] {
  const end = Math.min(offset + size, order.length);
  const keys = new Array<Buffer>(end - offset);
  for (let i = offset; i < end; i++) {
    keys[i - offset] = data.keys[order[i]];
  }
  return keys;
}

function seconds(startMs: number): number {
  return (performance.now() - startMs) / 1000;
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

function percentiles(latenciesMs: number[]): { p50Ms: number; p99Ms: number } {
  const sorted = Float64Array.from(latenciesMs).sort();
  const at = (q: number): number =>
    round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))], 4);
  return { p50Ms: at(0.5), p99Ms: at(0.99) };
}

function startRssSampler(): { stop(): number } {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 50);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      return Math.round(Math.max(peak, process.memoryUsage.rss()) / (1024 * 1024));
    },
  };
}

/** The results as a fixed-width text table. */
export function formatTable(results: readonly StoreBenchResult[]): string {
  const header = ['system', 'operations', 'seconds', 'events/s', 'p50 ms', 'p99 ms', 'peak RSS MB'];
  const rows = results.map((r) => [
    r.system,
    String(r.operations),
    r.seconds.toFixed(3),
    r.eventsPerSec.toLocaleString('en-US'),
    r.p50Ms === undefined ? '' : r.p50Ms.toFixed(4),
    r.p99Ms === undefined ? '' : r.p99Ms.toFixed(4),
    r.peakRssMb === undefined ? '' : String(r.peakRssMb),
  ]);
  const widths = header.map((title, c) =>
    Math.max(title.length, ...rows.map((row) => row[c].length)),
  );
  const line = (cells: string[]): string =>
    cells
      .map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c])))
      .join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

function parseArgs(argv: readonly string[]): {
  params: StoreBenchParams;
  json?: string;
  inProcess: boolean;
} {
  const options = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i];
    if (!name.startsWith('--') || i + 1 >= argv.length) {
      throw new Error(`unexpected argument ${name}`);
    }
    options.set(name.slice(2), argv[++i]);
  }
  const integer = (name: string, fallback: number): number => {
    const text = options.get(name);
    const value = text === undefined ? fallback : Number(text.replace(/_/g, ''));
    if (!Number.isInteger(value) || value <= 0) {
      throw new Error(`--${name} must be a positive integer`);
    }
    return value;
  };
  const keys = integer('keys', 200_000);
  const params: StoreBenchParams = {
    keys,
    valueSize: integer('value-size', 100),
    batchSize: 1000,
    restoreRecords: integer('restore-records', 1_000_000),
    singleGetSample: integer('single-get-sample', Math.min(keys, 100_000)),
    rangeScans: integer('range-scans', 2000),
    rangeLength: 100,
    seed: integer('seed', 42),
    engines: (options.get('engines') ?? Object.keys(ENGINES).join(',')).split(','),
  };
  return { params, json: options.get('json'), inProcess: options.get('in-process') === 'true' };
}

async function main(): Promise<void> {
  const { params, json, inProcess } = parseArgs(process.argv.slice(2));
  const loadBefore = loadavg()[0];
  if (!inProcess) {
    process.stderr.write(`store bench: ${JSON.stringify(params)}\n`);
  }
  const results = inProcess ? await runStoreBenchInProcess(params) : await runStoreBench(params);
  process.stdout.write(`${formatTable(results)}\n`);
  if (json !== undefined) {
    const environment = {
      node: process.version,
      cpus: availableParallelism(),
      cpuModel: cpus()[0]?.model,
      platform: `${process.platform}-${process.arch}`,
      /** The machine's 1-minute load average before and after the run (noise indicator). */
      loadAverage: [round(loadBefore, 2), round(loadavg()[0], 2)],
    };
    const report = { scenario: 'store', params: { ...params, ...environment }, results };
    writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(
      `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  });
}

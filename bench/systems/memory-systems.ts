import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { KafkaClientName } from '@nest-streams/streams';
import { runChild, type ChildSpec } from '../harness/child-process';
import { parseWorkerResult } from '../harness/child-row';
import { clientArgs, engineOn } from '../harness/kafka-clients';
import { REPO_ROOT } from '../harness/node-worker';
import type { RunContext } from '../harness/run-context';
import type { SystemRow } from '../harness/system-row';
import { memoryStoreKinds } from '../topologies/memory-topology';
import { POINT_READ_PASSES } from '../workers/memory-store-reads';

/** One memory measurement: a system, a RocksDB variant and a store count. */
export interface MemoryRunSpec {
  readonly which: 'ours' | 'java';
  /** Ours: the engine's Kafka client (kafkajs, the workers' default, when undefined). */
  readonly client?: KafkaClientName;
  /** RocksDB defaults per store, or bounded memory (one budget shared by every store). */
  readonly rocksdb: 'default' | 'bounded';
  /** The bounded budget in MiB (both systems size their setter from it the same way). */
  readonly budgetMb: number;
  readonly stores: number;
  readonly inputTopic: string;
  /** The aggregate truth (`user\tcount\tsum`): what every key-value store holds. */
  readonly truthFile: string;
  /** The windowed truth (`user\twindowStart\tcount`): what every windowed store holds. */
  readonly windowedTruthFile: string;
  /** Row label without the store count; also the comparison key of its variant. */
  readonly variant: string;
  readonly expectedRecords: number;
  /** Users in the truth: the entries of every key-value store, unless the input is dropped. */
  readonly users: number;
  /** Windows in the windowed truth: the entries of every windowed store, unless dropped. */
  readonly userWindows: number;
  /**
   * The same input is consumed but every record is dropped before the stores, which stay
   * empty: the process, its input and N open RocksDB instances without their data.
   */
  readonly dropInput?: boolean;
  /** glibc's `MALLOC_ARENA_MAX` for the child (unset: glibc's default, 8 per core). */
  readonly mallocArenaMax?: number;
  /** Java: the JVM's maximum heap (`-Xmx`, as `512m`); unset: the JVM's default. */
  readonly javaMaxHeap?: string;
}

/**
 * What a memory row must have read (see bench/workers/memory-store-reads.ts): `entries` from
 * the full scans (none when the input is dropped) and `pointReads`, every key of the truths
 * in every store of its kind, twice (the dropped baseline makes the same reads).
 */
export function expectedReads(
  spec: Pick<MemoryRunSpec, 'stores' | 'users' | 'userWindows' | 'dropInput'>,
): { entries: number; pointReads: number } {
  const { keyValue, windowed } = memoryStoreKinds(spec.stores);
  const perPass = spec.users * keyValue + spec.userWindows * windowed;
  return { entries: spec.dropInput ? 0 : perPass, pointReads: POINT_READ_PASSES * perPass };
}

/**
 * Runs one memory measurement in its own process (ours: bench/workers/memory-worker.ts with
 * `--expose-gc`; Java: the peer's `memory` mode, with `-Xmx` when `javaMaxHeap` is set) and
 * turns it into a row: RSS after fill, reads and GC, peak RSS (VmHWM), seconds to fill. A
 * wrong store content, or fewer or more entries or point reads than {@link expectedReads},
 * fails the row.
 */
export async function runMemory(ctx: RunContext, spec: MemoryRunSpec): Promise<SystemRow> {
  const { options } = ctx;
  const system = `${spec.variant}, ${spec.stores} store${spec.stores === 1 ? '' : 's'}`;
  const role = spec.which;
  const client = spec.which === 'ours' ? (spec.client ?? 'kafkajs') : undefined;
  // One application id (consumer group) and state directory per row: two rows sharing a group
  // would find the input already committed and fill nothing.
  const tag =
    `${client === undefined ? 'java' : engineOn(client).tag}-${spec.rocksdb}${spec.dropInput ? '-empty' : ''}` +
    `${spec.mallocArenaMax === undefined ? '' : `-arenas${spec.mallocArenaMax}`}-${spec.stores}`;
  const stateDir = join(ctx.workDir, `state-${tag}`);
  const timeoutMs = memoryRowTimeoutMs(options.timeoutMs, spec.stores);
  const args = [
    '--bootstrap-servers',
    ctx.brokers,
    '--input-topic',
    spec.inputTopic,
    '--application-id',
    `${ctx.runPrefix}-${tag}`,
    '--state-dir',
    stateDir,
    '--commit-interval-ms',
    String(options.commitIntervalMs),
    '--cache-max-bytes',
    String(options.cacheMaxBytes),
    '--stores',
    String(spec.stores),
    '--rocksdb',
    spec.rocksdb,
    '--rocksdb-memory-mb',
    String(spec.budgetMb),
    '--truth-file',
    spec.truthFile,
    '--windowed-truth-file',
    spec.windowedTruthFile,
    '--timeout-ms',
    String(timeoutMs),
  ];
  const env =
    spec.mallocArenaMax === undefined
      ? undefined
      : { ...process.env, MALLOC_ARENA_MAX: String(spec.mallocArenaMax) };
  let child: ChildSpec;
  if (spec.which === 'ours') {
    child = {
      command: process.execPath,
      args: [
        '--expose-gc',
        '--import',
        'tsx',
        join(REPO_ROOT, 'bench', 'workers', 'memory-worker.ts'),
        ...args,
        ...(spec.dropInput ? ['--drop-input', 'true'] : []),
        ...clientArgs(client),
      ],
      cwd: REPO_ROOT,
      ...(env && { env }),
      label: system,
      timeoutMs: memoryChildTimeoutMs(timeoutMs, spec.stores),
      verbose: options.verbose,
    };
  } else {
    let peer;
    try {
      peer = ctx.javaPeer();
    } catch (error) {
      return {
        system,
        role,
        compareKey: spec.variant,
        failure: error instanceof Error ? error.message : String(error),
      };
    }
    child = {
      command: peer.java,
      args: [
        ...(spec.javaMaxHeap === undefined ? [] : [`-Xmx${spec.javaMaxHeap}`]),
        ...peer.baseArgs,
        '--mode',
        'memory',
        ...args,
      ],
      cwd: REPO_ROOT,
      ...(env && { env }),
      label: system,
      timeoutMs: memoryChildTimeoutMs(timeoutMs, spec.stores),
      verbose: options.verbose,
    };
  }
  ctx.log(`running ${system}...`);
  const outcome = await runChild(child);
  rmSync(stateDir, { recursive: true, force: true });
  const base = {
    system,
    role,
    compareKey: spec.variant,
    ...(client !== undefined && { client }),
    loadAverage: outcome.loadAverage,
  };
  const parsed = parseWorkerResult(outcome);
  if (typeof parsed === 'string') return { ...base, failure: parsed };
  const problems: string[] = [];
  if (outcome.exitCode !== 0) problems.push(`exit code ${outcome.exitCode ?? outcome.signal}`);
  if (parsed.mismatches > 0)
    problems.push(`${parsed.mismatches} wrong entries (${parsed.firstMismatch ?? '?'})`);
  if (parsed.records !== spec.expectedRecords)
    problems.push(`${parsed.records} records, expected ${spec.expectedRecords}`);
  const expected = expectedReads(spec);
  if (parsed.storeEntries !== expected.entries) {
    problems.push(`${parsed.storeEntries ?? '?'} entries read back, expected ${expected.entries}`);
  }
  if (Number(parsed.details.pointReads) !== expected.pointReads) {
    problems.push(
      `${String(parsed.details.pointReads)} point reads, expected ${expected.pointReads}`,
    );
  }
  const rssMb = Number(parsed.details.rssMb);
  const v8HeapMb = Number(parsed.details.v8HeapMb);
  if (!(rssMb > 0)) problems.push('no RSS figure');
  if (problems.length > 0) return { ...base, failure: `wrong or failed: ${problems.join('; ')}` };
  return {
    ...base,
    note: readsNote(spec, Number(parsed.details.heapMaxMb)) + footprintNote(parsed.details),
    result: {
      system,
      seconds: Math.round(parsed.seconds * 100) / 100,
      rssMb: Math.round(rssMb * 10) / 10,
      ...(v8HeapMb > 0 ? { v8HeapMb: Math.round(v8HeapMb * 10) / 10 } : {}),
      ...(parsed.peakRssMb !== undefined
        ? { peakRssMb: Math.round(parsed.peakRssMb * 10) / 10 }
        : {}),
    },
  };
}

/**
 * A memory row's note: its stores by kind and the reads made before the RSS sample, and for
 * Java its heap limit (`heapMaxMb`: the JVM's `maxMemory()` as the peer reported it), e.g.
 * `8 kv + 2 windowed stores; all() + 2 gets per key, checked; -Xmx512m`.
 */
export function readsNote(
  spec: Pick<MemoryRunSpec, 'stores' | 'dropInput' | 'javaMaxHeap' | 'which'>,
  heapMaxMb?: number,
): string {
  const { keyValue, windowed } = memoryStoreKinds(spec.stores);
  const max = heapMaxMb !== undefined && heapMaxMb > 0 ? ` (max ${heapMaxMb.toFixed(0)} MiB)` : '';
  const heap =
    spec.which === 'java'
      ? `; ${spec.javaMaxHeap === undefined ? 'default heap' : `-Xmx${spec.javaMaxHeap}`}${max}`
      : '';
  const found = spec.dropInput ? ', all empty' : ', checked';
  return (
    `${keyValue} kv + ${windowed} windowed stores; all() + ${POINT_READ_PASSES} gets per key` +
    `${found}${heap}`
  );
}

/**
 * What our worker's RocksDB engines reported holding at the RSS sample (`rocksdb*` details of
 * `bench/workers/rocksdb-footprint.ts`), e.g. `; RocksDB 60 stores: cache 64.1 MB (pinned 2.0),
 * memtables 8.3, table readers 0.4`; empty for Java, whose peer does not report them.
 */
export function footprintNote(details: Readonly<Record<string, unknown>>): string {
  if (details.rocksdbStores === undefined) return '';
  const mb = (key: string): string => Number(details[key]).toFixed(1);
  return (
    `; RocksDB ${Number(details.rocksdbStores)} stores: cache ${mb('rocksdbCacheMb')} MB` +
    ` (pinned ${mb('rocksdbCachePinnedMb')}), memtables ${mb('rocksdbMemTablesMb')},` +
    ` table readers ${mb('rocksdbTableReadersMb')}`
  );
}

/** Time to fill one store, at least, in a memory row's timeout (Java took 19 s per store at 50). */
export const MEMORY_TIMEOUT_PER_STORE_MS = 25_000;

/**
 * Time allowed per store for the reads after the fill (a scan and two point reads of every
 * key: at 300,000 events, about 190,000 keys per store, 380,000 lookups; Java's `get` ran at
 * about 57,000/s on this machine).
 */
export const MEMORY_READS_PER_STORE_MS = 15_000;

/**
 * A memory row's fill timeout (the worker's `--timeout-ms`): `--timeout-ms`, or more for many
 * stores, which every record fills (at 50 stores ours took 284 s and Java 971 s to fill, past
 * the default 300 s).
 */
export function memoryRowTimeoutMs(timeoutMs: number, stores: number): number {
  return Math.max(timeoutMs, stores * MEMORY_TIMEOUT_PER_STORE_MS);
}

/**
 * A memory row's process timeout: the fill timeout ({@link memoryRowTimeoutMs} of it), the
 * reads ({@link MEMORY_READS_PER_STORE_MS} per store) and a minute to start and stop.
 */
export function memoryChildTimeoutMs(fillTimeoutMs: number, stores: number): number {
  return fillTimeoutMs + stores * MEMORY_READS_PER_STORE_MS + 60_000;
}

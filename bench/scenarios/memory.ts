import { totalmem } from 'node:os';
import { join } from 'node:path';
import {
  formatMemoryTable,
  memoryBars,
  memoryGrowth,
  storeCountOf,
} from '../harness/figure-tables';
import { selectedEngines, type OurEngine } from '../harness/kafka-clients';
import type { SystemRow } from '../harness/system-row';
import { aggregateTruth, windowedTruth, writeTruth } from '../harness/truth';
import { WINDOW_SIZE_MS } from '../topologies/bench-types';
import { memoryStoreKinds, WINDOWED_EVERY } from '../topologies/memory-topology';
import { POINT_READ_PASSES } from '../workers/memory-store-reads';
import { runMemory, type MemoryRunSpec } from '../systems/memory-systems';
import { boundedDescription } from '../workers/memory-config';
import type { Scenario } from './scenario';
import { prepareInput } from './scenario-input';

type Variant = Pick<
  MemoryRunSpec,
  'which' | 'client' | 'rocksdb' | 'variant' | 'dropInput' | 'mallocArenaMax' | 'javaMaxHeap'
>;

/**
 * glibc's arena limit of the bounded rows (both systems), the deployment the README recommends:
 * glibc's default (8 arenas per core) leaves memory freed by RocksDB's threads scattered over
 * per-thread arenas, which grows with the number of stores outside any budget.
 */
const BOUNDED_MALLOC_ARENA_MAX = 2;

/** The bounded variant of our engine on a client: `nest-streams (kafkajs), bounded memory (...)`. */
export function boundedVariant(engine: Pick<OurEngine, 'label'>): string {
  return `${engine.label}, bounded memory (MALLOC_ARENA_MAX=${BOUNDED_MALLOC_ARENA_MAX})`;
}

/** A bounded variant's baseline: the same process with every input record dropped. */
export function droppedVariant(bounded: string): string {
  return `${bounded}, same input dropped`;
}

/** Our engine's variants on one client. */
function oursVariants(engine: OurEngine): Variant[] {
  const ours = { which: 'ours' as const, client: engine.client };
  return [
    { ...ours, rocksdb: 'default', variant: `${engine.label}, RocksDB defaults` },
    {
      ...ours,
      rocksdb: 'bounded',
      variant: boundedVariant(engine),
      mallocArenaMax: BOUNDED_MALLOC_ARENA_MAX,
    },
    { ...ours, rocksdb: 'bounded', variant: `${engine.label}, bounded memory (glibc default)` },
    {
      ...ours,
      rocksdb: 'bounded',
      variant: droppedVariant(boundedVariant(engine)),
      dropInput: true,
      mallocArenaMax: BOUNDED_MALLOC_ARENA_MAX,
    },
  ];
}

/** The heap limit a user would give the bounded Java application (`-Xmx`). */
export const JAVA_BOUNDED_MAX_HEAP = '512m';

/** The Java peer's bounded variant: Kafka Streams' bounded-memory recipe and `-Xmx512m`. */
export const JAVA_BOUNDED_VARIANT = `kafka-streams-java, bounded memory (MALLOC_ARENA_MAX=${BOUNDED_MALLOC_ARENA_MAX}, -Xmx${JAVA_BOUNDED_MAX_HEAP})`;

const JAVA_VARIANTS: readonly Variant[] = [
  {
    which: 'java',
    rocksdb: 'default',
    variant: 'kafka-streams-java, RocksDB defaults (JVM default heap)',
  },
  {
    which: 'java',
    rocksdb: 'bounded',
    variant: JAVA_BOUNDED_VARIANT,
    mallocArenaMax: BOUNDED_MALLOC_ARENA_MAX,
    javaMaxHeap: JAVA_BOUNDED_MAX_HEAP,
  },
];

/**
 * `memory`: resident memory of one process holding N persistent RocksDB stores (1, 10, 50 by
 * default), each filled with the same keys and values by a topology of N counts per user over
 * the same single-partition input (cached, no changelog), read back in full and checked, then
 * measured after a forced GC. The data (300,000 users by default: about 6 MB per store) is
 * larger than the bounded budget from 10 stores on, so the caches and memtables fill.
 *
 * Variants: ours and the Java peer with RocksDB defaults per store, and with bounded memory (one
 * cache of `--rocksdb-memory-mb` and a write-buffer manager charged to it, shared by every
 * store, sized alike on both sides, `MALLOC_ARENA_MAX=2` as the README recommends; ours also
 * with glibc's default arenas, to show what the allocator setting does); and ours
 * bounded consuming the same input and truth with every record dropped before the N stores
 * (the baseline: everything but the stores' data). Ours runs every variant on each selected
 * client (`ours`, `ours-kafkajs`). `bound` then checks, per client and N, that the bounded
 * process's memory outside V8's heap stays within that baseline's plus the budget plus the
 * record cache.
 */
export const memoryScenario: Scenario = {
  name: 'memory',
  description: 'RSS of one process with N persistent RocksDB stores: defaults vs bounded memory',
  defaults: { events: 300_000, keys: 300_000, partitions: 1 },
  presentation: {
    table: formatMemoryTable,
    legend:
      'RSS: VmRSS after the stores were filled, scanned in full (all()), every key of every store read twice by point lookup (get) with every value checked, and a GC forced; peak: VmHWM; growth: RSS over the next smaller store count of the same variant. Every 5th store is a windowed count. Bounded rows of ours: RSS against the fixed cost (the RSS of the same client and store count with the input dropped: the "same input dropped" row) + the RocksDB budget + the record cache.',
    chartTitle: 'resident memory after filling N stores, MB (lower is better)',
    bars: memoryBars,
  },
  async run(ctx) {
    const input = await prepareInput(ctx, this.defaults);
    const truth = aggregateTruth(input.data);
    const truthFile = join(ctx.workDir, 'truth-memory.tsv');
    await writeTruth(truth, truthFile);
    const windows = windowedTruth(input.data, WINDOW_SIZE_MS);
    const windowedTruthFile = join(ctx.workDir, 'truth-memory-windowed.tsv');
    await writeTruth(windows, windowedTruthFile);
    if (ctx.options.systems.includes('java')) ctx.javaPeer();
    const budgetMb = ctx.options.rocksdbMemoryMb;
    const rows: SystemRow[] = [];
    const engines = selectedEngines(ctx.options.systems);
    const variants = [
      ...engines.flatMap(oursVariants),
      ...(ctx.options.systems.includes('java') ? JAVA_VARIANTS : []),
    ];
    for (const variant of variants) {
      for (const stores of ctx.options.storeCounts) {
        rows.push(
          await runMemory(ctx, {
            ...variant,
            budgetMb,
            stores,
            inputTopic: input.topic,
            truthFile,
            windowedTruthFile,
            expectedRecords: input.data.length,
            users: truth.size,
            userWindows: windows.size,
          }),
        );
      }
    }
    const recordCacheMb = ctx.options.cacheMaxBytes / 2 ** 20;
    const bound = Object.fromEntries(
      engines.map((engine) => [
        engine.client,
        boundCheck(rows, boundedVariant(engine), budgetMb, recordCacheMb),
      ]),
    );
    let noted: SystemRow[] = rows;
    for (const engine of engines) {
      noted = withBoundNotes(
        noted,
        boundedVariant(engine),
        bound[engine.client],
        budgetMb,
        recordCacheMb,
      );
    }
    const counts = ctx.options.storeCounts;
    const largest = counts[counts.length - 1];
    const growth = Object.fromEntries(
      rows
        .filter((r) => r.system.endsWith(`, ${largest} stores`))
        .map((r) => [r.compareKey, memoryGrowth(r, rows)]),
    );
    return {
      rows: noted,
      params: {
        ...input.params,
        users: truth.size,
        userWindows: windows.size,
        storeCounts: counts,
        storeKinds: Object.fromEntries(counts.map((n) => [n, memoryStoreKinds(n)])),
        storesFilledBy: `a topology of N stores over the same input, one partition, persistent RocksDB, logging disabled: every ${WINDOWED_EVERY}th store (indices ${WINDOWED_EVERY - 1}, ${2 * WINDOWED_EVERY - 1}, ...) a groupByKey().windowedBy(5-minute tumbling, no grace, retention 1 h).count() (segmented: several RocksDB instances each), the others a groupByKey().count() (caching on, one RocksDB instance each)`,
        readBack: `every entry of every store through interactive queries (all()), then every key of every store read ${POINT_READ_PASSES} times by point lookup (get; fetch(user, windowStart) for the windowed stores), every value checked against the truth, before the GC and the RSS sample; the dropped-input rows make the same reads and find nothing`,
        bounded: `both systems: ${boundedDescription(budgetMb)}`,
        gc: 'ours: node --expose-gc, gc() twice; Java: System.gc(); then 1 s before reading VmRSS',
        javaHeap: `bounded: -Xmx${JAVA_BOUNDED_MAX_HEAP}; defaults: the JVM's default maximum heap (a quarter of physical memory unless a container limit applies: ${Math.round(totalmem() / 4 / 2 ** 20)} MiB here; each Java row's note gives the maximum the JVM reported)`,
        growthToLargest: growth,
        mallocArenaMax: `rows marked (MALLOC_ARENA_MAX=${BOUNDED_MALLOC_ARENA_MAX}); the others: glibc's default (8 arenas per core)`,
        bound,
        boundFormula:
          "fixed cost(N) = the RSS of the same process (same client, same N) consuming the same input with every record dropped before its N (empty) stores and making the same reads; rssLimitMb = fixed cost + the RocksDB budget + the record cache (statestoreCacheMaxBytes), rssWithinBound = RSS <= rssLimitMb. The same outside V8's heap (RSS - heapTotal, read together, as V8 sizes its heap by its own rules): limitMb, withinBound; overBaselineMb = what the stores' data cost there; a per-store cost outside the budget shows as overBaselineMb growing with N",
        vsJava: Object.fromEntries(
          engines.map((engine) => [
            engine.client,
            javaComparison(rows, boundedVariant(engine), JAVA_BOUNDED_VARIANT),
          ]),
        ),
      },
    };
  },
};

/** One store count's bound check (see {@link boundCheck}). */
interface BoundCheck {
  rssMb: number;
  /** The fixed cost: the RSS of the same process, client and N with the input dropped. */
  emptyRssMb: number;
  /** The fixed cost + the budget + the record cache. */
  rssLimitMb: number;
  rssWithinBound: boolean;
  /** RSS minus V8's committed heap: RocksDB, the allocator, buffers, code. */
  outsideHeapMb: number;
  emptyOutsideHeapMb: number;
  /** What the stores' data cost outside V8's heap. */
  overBaselineMb: number;
  limitMb: number;
  withinBound: boolean;
}

/**
 * Per store count: ours bounded (the rows of the `bounded` variant, on one client) against the
 * baseline (`<bounded>, same input dropped`: the same process, input, reads and N stores with
 * every record dropped, so the stores stay empty: the stated fixed cost) plus the budget plus
 * the record cache, compared on RSS (`rssLimitMb`, `rssWithinBound`) and outside V8's heap (RSS minus `heapTotal`, read at the same moment): V8 sizes its
 * heap by its own rules (the dropped baseline's heap moved by 60 MB between two runs), and no
 * RocksDB memory is in it. The baseline holds the process, the input's handling and the fixed
 * cost of N open RocksDB instances; `withinBound` says whether the filled stores stayed under
 * the limit, and `overBaselineMb` is what the stores' data cost.
 */
export function boundCheck(
  rows: readonly SystemRow[],
  bounded: string,
  budgetMb: number,
  recordCacheMb: number,
): Record<string, BoundCheck> {
  const result = (variant: string, stores: number) =>
    rows.find((r) => r.compareKey === variant && storeCountOf(r) === stores)?.result;
  const round = (mb: number): number => Math.round(mb * 10) / 10;
  const checks: Record<string, BoundCheck> = {};
  for (const row of rows.filter((r) => r.compareKey === bounded)) {
    const stores = storeCountOf(row)!;
    const filled = row.result;
    const empty = result(droppedVariant(bounded), stores);
    if (filled?.rssMb === undefined || filled.v8HeapMb === undefined) continue;
    if (empty?.rssMb === undefined || empty.v8HeapMb === undefined) continue;
    const outside = filled.rssMb - filled.v8HeapMb;
    const emptyOutside = empty.rssMb - empty.v8HeapMb;
    const limitMb = round(emptyOutside + budgetMb + recordCacheMb);
    const rssLimitMb = round(empty.rssMb + budgetMb + recordCacheMb);
    checks[`${stores} stores`] = {
      rssMb: filled.rssMb,
      emptyRssMb: empty.rssMb,
      rssLimitMb,
      rssWithinBound: filled.rssMb <= rssLimitMb,
      outsideHeapMb: round(outside),
      emptyOutsideHeapMb: round(emptyOutside),
      overBaselineMb: round(outside - emptyOutside),
      limitMb,
      withinBound: outside <= limitMb,
    };
  }
  return checks;
}

/** One store count's comparison with Java's bounded row (see {@link javaComparison}). */
interface JavaComparison {
  rssMb: number;
  javaRssMb: number;
  peakRssMb: number;
  javaPeakRssMb: number;
  /** Both the RSS after GC and the peak no higher than Java's. */
  noHigherThanJava: boolean;
}

/**
 * Per store count: ours bounded (one client) against Java's bounded row (its recipe and
 * `-Xmx512m`), on the RSS after the reads and GC and on the peak (VmHWM). Counts where either
 * row failed or has no peak are left out.
 */
export function javaComparison(
  rows: readonly SystemRow[],
  bounded: string,
  javaBounded: string,
): Record<string, JavaComparison> {
  const out: Record<string, JavaComparison> = {};
  for (const row of rows.filter((r) => r.compareKey === bounded)) {
    const stores = storeCountOf(row);
    const java = rows.find((r) => r.compareKey === javaBounded && storeCountOf(r) === stores);
    const ours = row.result;
    const theirs = java?.result;
    if (ours?.rssMb === undefined || ours.peakRssMb === undefined) continue;
    if (theirs?.rssMb === undefined || theirs.peakRssMb === undefined) continue;
    out[`${stores} stores`] = {
      rssMb: ours.rssMb,
      javaRssMb: theirs.rssMb,
      peakRssMb: ours.peakRssMb,
      javaPeakRssMb: theirs.peakRssMb,
      noHigherThanJava: ours.rssMb <= theirs.rssMb && ours.peakRssMb <= theirs.peakRssMb,
    };
  }
  return out;
}

/**
 * The rows with the bound check of `bounded`'s rows (one client, from {@link boundCheck})
 * appended to their note: `RSS 443 <= fixed 281 + budget 64 + cache 10 = 355: over`.
 */
export function withBoundNotes(
  rows: readonly SystemRow[],
  bounded: string,
  checks: Readonly<Record<string, BoundCheck>>,
  budgetMb: number,
  recordCacheMb: number,
): SystemRow[] {
  return rows.map((row) => {
    const check = row.compareKey === bounded ? checks[`${storeCountOf(row)} stores`] : undefined;
    if (check === undefined) return row;
    const bound =
      `RSS ${check.rssMb.toFixed(0)} <= fixed ${check.emptyRssMb.toFixed(0)} + budget ` +
      `${budgetMb} + cache ${recordCacheMb.toFixed(0)} = ${check.rssLimitMb.toFixed(0)}: ` +
      (check.rssWithinBound ? 'within' : 'over');
    return { ...row, note: row.note ? `${row.note}; ${bound}` : bound };
  });
}

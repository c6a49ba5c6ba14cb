import { join } from 'node:path';
import {
  formatMemoryTable,
  memoryBars,
  memoryGrowth,
  storeCountOf,
} from '../harness/figure-tables';
import { selectedEngines, type OurEngine } from '../harness/kafka-clients';
import type { SystemRow } from '../harness/system-row';
import { aggregateTruth, writeTruth } from '../harness/truth';
import { runMemory, type MemoryRunSpec } from '../systems/memory-systems';
import { boundedDescription } from '../workers/memory-config';
import type { Scenario } from './scenario';
import { prepareInput } from './scenario-input';

type Variant = Pick<
  MemoryRunSpec,
  'which' | 'client' | 'rocksdb' | 'variant' | 'dropInput' | 'mallocArenaMax'
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

const JAVA_VARIANTS: readonly Variant[] = [
  { which: 'java', rocksdb: 'default', variant: 'kafka-streams-java, RocksDB defaults' },
  {
    which: 'java',
    rocksdb: 'bounded',
    variant: `kafka-streams-java, bounded memory (MALLOC_ARENA_MAX=${BOUNDED_MALLOC_ARENA_MAX})`,
    mallocArenaMax: BOUNDED_MALLOC_ARENA_MAX,
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
      'RSS: VmRSS after the stores were filled, read back in full and a GC forced; peak: VmHWM; growth: RSS over the next smaller store count of the same variant.',
    chartTitle: 'resident memory after filling N stores, MB (lower is better)',
    bars: memoryBars,
  },
  async run(ctx) {
    const input = await prepareInput(ctx, this.defaults);
    const truth = aggregateTruth(input.data);
    const truthFile = join(ctx.workDir, 'truth-memory.tsv');
    await writeTruth(truth, truthFile);
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
            expectedRecords: input.data.length,
            users: variant.dropInput ? 0 : truth.size,
          }),
        );
      }
    }
    const counts = ctx.options.storeCounts;
    const largest = counts[counts.length - 1];
    const growth = Object.fromEntries(
      rows
        .filter((r) => r.system.endsWith(`, ${largest} stores`))
        .map((r) => [r.compareKey, memoryGrowth(r, rows)]),
    );
    return {
      rows,
      params: {
        ...input.params,
        users: truth.size,
        storeCounts: counts,
        storesFilledBy:
          'a topology of N groupByKey().count() over the same input (persistent RocksDB, caching on, logging disabled), one partition: one RocksDB instance per store',
        readBack:
          'every entry of every store through interactive queries (all()), checked against the truth',
        bounded: `both systems: ${boundedDescription(budgetMb)}`,
        gc: 'ours: node --expose-gc, gc() twice; Java: System.gc(); then 1 s before reading VmRSS',
        growthToLargest: growth,
        mallocArenaMax: `rows marked (MALLOC_ARENA_MAX=${BOUNDED_MALLOC_ARENA_MAX}); the others: glibc's default (8 arenas per core)`,
        bound: Object.fromEntries(
          engines.map((engine) => [
            engine.client,
            boundCheck(rows, boundedVariant(engine), budgetMb, ctx.options.cacheMaxBytes / 2 ** 20),
          ]),
        ),
        boundFormula:
          "outside V8's heap (RSS - heapTotal, read together): limit(N) = that of the same process consuming the same input with every record dropped before its N (empty) stores + the RocksDB budget + the record cache (statestoreCacheMaxBytes); overBaselineMb = what the stores' data cost there; a per-store cost outside the budget shows as overBaselineMb growing with N",
      },
    };
  },
};

/** One store count's bound check (see {@link boundCheck}). */
interface BoundCheck {
  rssMb: number;
  emptyRssMb: number;
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
 * baseline (`<bounded>, same input dropped`: the same process, input and N stores with every
 * record dropped, so the stores stay empty) plus the budget plus the record cache, compared
 * outside V8's heap (RSS minus `heapTotal`, read at the same moment): V8 sizes its
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
    checks[`${stores} stores`] = {
      rssMb: filled.rssMb,
      emptyRssMb: empty.rssMb,
      outsideHeapMb: round(outside),
      emptyOutsideHeapMb: round(emptyOutside),
      overBaselineMb: round(outside - emptyOutside),
      limitMb,
      withinBound: outside <= limitMb,
    };
  }
  return checks;
}

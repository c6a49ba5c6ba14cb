import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  formatMemoryTable,
  memoryBars,
  memoryGrowth,
  storeCountOf,
} from '../harness/figure-tables';
import type { SystemRow } from '../harness/system-row';
import { aggregateTruth, writeTruth } from '../harness/truth';
import { runMemory, type MemoryRunSpec } from '../systems/memory-systems';
import { boundedDescription } from '../workers/memory-config';
import type { Scenario } from './scenario';
import { prepareInput } from './scenario-input';

type Variant = Pick<MemoryRunSpec, 'which' | 'rocksdb' | 'variant' | 'empty'>;

const VARIANTS: readonly Variant[] = [
  { which: 'ours', rocksdb: 'default', variant: 'nest-streams, RocksDB defaults' },
  { which: 'ours', rocksdb: 'bounded', variant: 'nest-streams, bounded memory' },
  {
    which: 'ours',
    rocksdb: 'bounded',
    variant: 'nest-streams, bounded memory, empty stores',
    empty: true,
  },
  { which: 'java', rocksdb: 'default', variant: 'kafka-streams-java, RocksDB defaults' },
  { which: 'java', rocksdb: 'bounded', variant: 'kafka-streams-java, bounded memory' },
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
 * store, sized alike on both sides); and ours bounded with the same N stores opened empty, the
 * fixed cost of N RocksDB instances. `bound` then checks, per N, that the bounded RSS stays
 * within the empty stores' RSS plus the budget.
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
    const emptyTopic = `${ctx.runPrefix}-empty`;
    await ctx.topics.createTopic(emptyTopic, input.partitions);
    const emptyTruthFile = join(ctx.workDir, 'truth-empty.tsv');
    writeFileSync(emptyTruthFile, '');
    if (ctx.options.systems.includes('java')) ctx.javaPeer();
    const budgetMb = ctx.options.rocksdbMemoryMb;
    const rows: SystemRow[] = [];
    for (const variant of VARIANTS) {
      if (!ctx.options.systems.includes(variant.which)) continue;
      for (const stores of ctx.options.storeCounts) {
        rows.push(
          await runMemory(ctx, {
            ...variant,
            budgetMb,
            stores,
            inputTopic: variant.empty ? emptyTopic : input.topic,
            truthFile: variant.empty ? emptyTruthFile : truthFile,
            expectedRecords: variant.empty ? 0 : input.data.length,
            users: variant.empty ? 0 : truth.size,
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
        bound: boundCheck(rows, budgetMb),
      },
    };
  },
};

/**
 * Per store count: ours bounded against the same N stores opened empty plus the budget. The
 * empty stores' RSS is the process and the fixed per-store cost (what the budget does not
 * cover); `withinBound` says whether the filled stores stayed under it.
 */
function boundCheck(
  rows: readonly SystemRow[],
  budgetMb: number,
): Record<string, { rssMb: number; emptyRssMb: number; limitMb: number; withinBound: boolean }> {
  const rss = (variant: string, stores: number): number | undefined =>
    rows.find((r) => r.compareKey === variant && storeCountOf(r) === stores)?.result?.rssMb;
  const result: Record<
    string,
    { rssMb: number; emptyRssMb: number; limitMb: number; withinBound: boolean }
  > = {};
  for (const row of rows.filter((r) => r.compareKey === 'nest-streams, bounded memory')) {
    const stores = storeCountOf(row)!;
    const filled = row.result?.rssMb;
    const empty = rss('nest-streams, bounded memory, empty stores', stores);
    if (filled === undefined || empty === undefined) continue;
    const limitMb = Math.round((empty + budgetMb) * 10) / 10;
    result[`${stores} stores`] = {
      rssMb: filled,
      emptyRssMb: empty,
      limitMb,
      withinBound: filled <= limitMb,
    };
  }
  return result;
}

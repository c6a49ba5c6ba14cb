import { join } from 'node:path';
import { formatMemoryTable, memoryBars, memoryGrowth } from '../harness/figure-tables';
import type { SystemRow } from '../harness/system-row';
import { aggregateTruth, writeTruth } from '../harness/truth';
import { runMemory, type MemoryRunSpec } from '../systems/memory-systems';
import { CAPPED_ROCKSDB_DESCRIPTION } from '../workers/memory-config';
import type { Scenario } from './scenario';
import { prepareInput } from './scenario-input';

const VARIANTS: readonly Pick<MemoryRunSpec, 'which' | 'rocksdb' | 'variant'>[] = [
  { which: 'ours', rocksdb: 'default', variant: 'nest-streams, RocksDB defaults' },
  { which: 'ours', rocksdb: 'capped', variant: 'nest-streams, per-store caps' },
  { which: 'java', rocksdb: 'default', variant: 'kafka-streams-java, RocksDB defaults' },
  { which: 'java', rocksdb: 'bounded', variant: 'kafka-streams-java, bounded memory' },
];

/**
 * `memory`: resident memory of one process holding N persistent RocksDB stores (1, 10, 50 by
 * default), each filled with the same keys and values by a topology of N counts per user over
 * the same single-partition input (cached, no changelog), read back in full and checked, then
 * measured after a forced GC. Ours with RocksDB defaults and with per-store caps (the npm
 * bindings cannot share a cache or a write-buffer manager), the Java peer with defaults and
 * with Kafka Streams' bounded-memory config (one LRU cache + write-buffer manager for all).
 */
export const memoryScenario: Scenario = {
  name: 'memory',
  description:
    'RSS of one process with N persistent RocksDB stores: defaults vs bounded / capped memory',
  defaults: { events: 20_000, keys: 10_000, partitions: 1 },
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
    const rows: SystemRow[] = [];
    for (const variant of VARIANTS) {
      if (!ctx.options.systems.includes(variant.which)) continue;
      for (const stores of ctx.options.storeCounts) {
        rows.push(
          await runMemory(ctx, {
            ...variant,
            stores,
            inputTopic: input.topic,
            truthFile,
            expectedRecords: input.data.length,
            users: truth.size,
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
        oursCapped: CAPPED_ROCKSDB_DESCRIPTION,
        javaBounded:
          'BoundedMemoryRocksDBConfig of the Kafka docs: one LRUCache of 32 MiB (index/filter ratio 0.1) and a WriteBufferManager of 8 MiB charged to it, shared by all stores; 1 MiB memtables x 2',
        gc: 'ours: node --expose-gc, gc() twice; Java: System.gc(); then 1 s before reading VmRSS',
        growthToLargest: growth,
        boundedMemoryTarget: 'RSS within +10% from 10 to 50 stores (issue #8)',
      },
    };
  },
};

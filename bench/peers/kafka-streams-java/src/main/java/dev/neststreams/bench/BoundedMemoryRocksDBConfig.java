package dev.neststreams.bench;

import java.util.Map;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.IndexType;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.WriteBufferManager;

/**
 * Kafka Streams' bounded-memory configuration, as in its documentation ("Memory management",
 * {@code BoundedMemoryRocksDBConfig}): one LRU block cache and one write-buffer manager charged
 * to it, shared by every store of the process, with index and filter blocks in the cache (high
 * priority, partitioned, top level pinned). The total off-heap memory of RocksDB then stays near
 * the budget whatever the number of stores.
 *
 * <p>Sized from one budget ({@link #size}, before the first store opens) exactly as
 * nest-streams' bench setter (bench/workers/memory-config.ts): the cache is the budget, the
 * memtables a quarter of it, memtables of a sixteenth of it (1 to 32 MiB), three of them.
 */
public class BoundedMemoryRocksDBConfig implements RocksDBConfigSetter {
  static final double INDEX_FILTER_BLOCK_RATIO = 0.1;
  static final int N_MEMTABLES = 3;

  private static long totalOffHeapMemory = 64L * 1024 * 1024;
  private static Cache cache;
  private static WriteBufferManager writeBufferManager;

  /** Sets the budget; call before Kafka Streams opens a store. */
  static synchronized void size(int budgetMb) {
    totalOffHeapMemory = budgetMb * 1024L * 1024;
  }

  private static synchronized void ensureShared() {
    if (cache != null) return;
    cache = new LRUCache(totalOffHeapMemory, -1, false, INDEX_FILTER_BLOCK_RATIO);
    writeBufferManager = new WriteBufferManager(totalOffHeapMemory / 4, cache);
  }

  @Override
  public void setConfig(String storeName, Options options, Map<String, Object> configs) {
    ensureShared();
    BlockBasedTableConfig tableConfig = (BlockBasedTableConfig) options.tableFormatConfig();
    // These three bound RocksDB's memory by the shared cache.
    tableConfig.setBlockCache(cache);
    tableConfig.setCacheIndexAndFilterBlocks(true);
    options.setWriteBufferManager(writeBufferManager);
    // Recommended with a bounded total.
    tableConfig.setCacheIndexAndFilterBlocksWithHighPriority(true);
    tableConfig.setPinTopLevelIndexAndFilter(true);
    tableConfig.setIndexType(IndexType.kTwoLevelIndexSearch);
    tableConfig.setPartitionFilters(true);
    options.setMaxWriteBufferNumber(N_MEMTABLES);
    // As nest-streams' setter: memtables grow in 64 KiB blocks, so that each store written to
    // holds 64 KiB at least instead of an eighth of its write buffer.
    options.setArenaBlockSize(64 * 1024);
    long mib = 1024L * 1024;
    options.setWriteBufferSize(Math.max(mib, Math.min(32 * mib, totalOffHeapMemory / 16)));
    options.setTableFormatConfig(tableConfig);
  }

  @Override
  public void close(String storeName, Options options) {
    // The cache and the write-buffer manager are shared by every store: never closed here.
  }
}

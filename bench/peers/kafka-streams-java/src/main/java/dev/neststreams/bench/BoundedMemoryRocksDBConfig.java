package dev.neststreams.bench;

import java.util.Map;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.WriteBufferManager;

/**
 * Kafka Streams' bounded-memory configuration, as in its documentation ("Memory management",
 * {@code BoundedMemoryRocksDBConfig}): one LRU block cache and one write-buffer manager charged
 * to it, shared by every store of the process, with index and filter blocks in the cache. The
 * total off-heap memory of RocksDB then stays near {@link #TOTAL_OFF_HEAP_MEMORY} whatever the
 * number of stores.
 */
public class BoundedMemoryRocksDBConfig implements RocksDBConfigSetter {
  static final long TOTAL_OFF_HEAP_MEMORY = 32L * 1024 * 1024;
  static final long TOTAL_MEMTABLE_MEMORY = 8L * 1024 * 1024;
  static final double INDEX_FILTER_BLOCK_RATIO = 0.1;
  static final long BLOCK_SIZE = 4 * 1024;
  static final int N_MEMTABLES = 2;
  static final long MEMTABLE_SIZE = 1024 * 1024;

  private static final Cache CACHE =
      new LRUCache(TOTAL_OFF_HEAP_MEMORY, -1, false, INDEX_FILTER_BLOCK_RATIO);
  private static final WriteBufferManager WRITE_BUFFER_MANAGER =
      new WriteBufferManager(TOTAL_MEMTABLE_MEMORY, CACHE);

  @Override
  public void setConfig(String storeName, Options options, Map<String, Object> configs) {
    BlockBasedTableConfig tableConfig = (BlockBasedTableConfig) options.tableFormatConfig();
    // These three bound RocksDB's memory by the shared cache.
    tableConfig.setBlockCache(CACHE);
    tableConfig.setCacheIndexAndFilterBlocks(true);
    options.setWriteBufferManager(WRITE_BUFFER_MANAGER);
    // Recommended with a bounded total.
    tableConfig.setCacheIndexAndFilterBlocksWithHighPriority(true);
    tableConfig.setPinTopLevelIndexAndFilter(true);
    tableConfig.setBlockSize(BLOCK_SIZE);
    options.setMaxWriteBufferNumber(N_MEMTABLES);
    options.setWriteBufferSize(MEMTABLE_SIZE);
    options.setTableFormatConfig(tableConfig);
  }

  @Override
  public void close(String storeName, Options options) {
    // The cache and the write-buffer manager are shared by every store: never closed here.
  }
}

import type { StateStore } from '../../../processor/state-store';
import type {
  LocalStoreMetrics,
  StoreMetricsSnapshot,
} from '../../../state/store-metrics-snapshot';
import type { RocksDBStoreMetrics } from '../../../state/rocksdb-store-metrics';
import type { TaskMetadata } from '../../task-metadata';
import type { ActiveTaskEntry } from '../active-tasks/active-task-entry';

/** What the metered layers of the engine offer (key-value, window and session stores). */
interface MeteredStore {
  metricsSnapshot(): StoreMetricsSnapshot;
  rocksDBMetrics?(): RocksDBStoreMetrics | undefined;
}

function isMetered(store: StateStore | undefined): store is StateStore & MeteredStore {
  return typeof (store as Partial<MeteredStore> | undefined)?.metricsSnapshot === 'function';
}

/** The metadata of each active task. */
export function activeTaskMetadata(entries: readonly ActiveTaskEntry[]): TaskMetadata[] {
  return entries.map((entry) => ({
    taskId: entry.task.id,
    topicPartitions: entry.partitions.map(({ topic, partition }) => ({ topic, partition })),
    stores: entry.task.storeNames(),
    restored: entry.restored,
  }));
}

/**
 * The metrics of every store of the active tasks. A store whose snapshot fails (it is closing)
 * is left out of this answer; the next one has it again.
 */
export function localStoreMetrics(entries: readonly ActiveTaskEntry[]): LocalStoreMetrics[] {
  const result: LocalStoreMetrics[] = [];
  for (const entry of entries) {
    for (const name of entry.task.storeNames()) {
      const store = entry.task.store(name);
      if (!isMetered(store)) continue;
      try {
        const rocksdb = store.rocksDBMetrics?.();
        result.push({ ...store.metricsSnapshot(), ...(rocksdb ? { rocksdb } : {}) });
      } catch {
        continue;
      }
    }
  }
  return result;
}

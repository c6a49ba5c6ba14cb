import type { Record } from '../../../processor/record';
import type { ConsumedRecord } from '../../../client/consumed-record';
import { prefetchTargets, type TaskProcessorNode } from './task-processor-node';

/** A consumed record deserialized, with the source node that reads its topic. */
export interface PreparedRecord {
  readonly source: TaskProcessorNode;
  readonly raw: ConsumedRecord;
  readonly record: Record<unknown, unknown>;
}

/**
 * A slice of a fetched batch ready to be processed by its task (`StreamTask.prepare`): its
 * records deserialized, the ones to skip, and the stateful processors' prefetch of their keys,
 * started (on RocksDB's pool) but possibly not done.
 */
export interface PreparedBatch {
  /** The records to process, in processing order (as the caller gave them). */
  readonly ready: readonly PreparedRecord[];
  /** Records that did not deserialize and were skipped (their handler said continue). */
  readonly skipped: readonly ConsumedRecord[];
  /** Sends the skipped records' dead letters: when the batch runs, in its transaction. */
  readonly sends: readonly (() => void)[];
  /**
   * Resolves once every prefetch is done; rejects with a prefetch's error (a RocksDB failure:
   * the task fails). Whoever prepared the batch awaits it, processed or not.
   */
  readonly loaded: Promise<void>;
}

/**
 * A batch of `ready` (in processing order: a task's `PartitionGroup` decides it) and `skipped`,
 * its prefetch started.
 */
export function preparedBatch(
  ready: readonly PreparedRecord[],
  skipped: readonly ConsumedRecord[],
  sends: readonly (() => void)[],
): PreparedBatch {
  // Each source's prefetch list, in processing order.
  const bySource = new Map<TaskProcessorNode, Record<unknown, unknown>[]>();
  for (const { source, record } of ready) {
    let list = bySource.get(source);
    if (!list) bySource.set(source, (list = []));
    list.push(record);
  }
  return { ready, skipped, sends, loaded: startPrefetch(bySource) };
}

/**
 * Starts the prefetch of each source's records by the processors that prefetch what they will
 * read (looking through key-preserving ones), one after the other.
 */
function startPrefetch(
  bySource: Map<TaskProcessorNode, Record<unknown, unknown>[]>,
): Promise<void> {
  const work: [TaskProcessorNode, Record<unknown, unknown>[]][] = [];
  for (const [source, list] of bySource) {
    for (const target of prefetchTargets(source)) work.push([target, list]);
  }
  if (work.length === 0) return Promise.resolve();
  return (async () => {
    for (const [target, list] of work) await target.processor!.prefetch!(list);
  })();
}

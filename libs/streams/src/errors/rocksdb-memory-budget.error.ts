import { StreamsError } from './streams.error';

/**
 * The application's RocksDB memory budget (`rocksDBMemoryBudgetMb`, bounded by default) cannot
 * be honoured: the process runs on the fallback engine (`@nxtedition/rocksdb`, chosen when the
 * `@nest-streams/rocksdb` addon is not built), which cannot share one block cache and one
 * write-buffer manager between stores, so memory would grow with every store and segment.
 * Thrown when the first persistent store opens.
 *
 * What to do: build the addon (`npm rebuild @nest-streams/rocksdb`; see the README), or accept
 * memory that grows with the stores with `rocksDBAllowUnboundedFallback: true`, or give your own
 * `rocksDBConfigSetter`. Retrying does not help.
 */
export class RocksDBMemoryBudgetError extends StreamsError.coded('ROCKSDB_MEMORY_BUDGET', false) {
  constructor(
    /** The budget that cannot be honoured, in bytes. */
    readonly budgetBytes: number,
    /** The engine the process chose. */
    readonly engine: string,
    /** Why the addon was not chosen, as the engine choice reported it. */
    readonly reason: string,
  ) {
    super(
      `the RocksDB memory budget of ${Math.round(budgetBytes / 1024 / 1024)} MiB cannot be honoured on ${engine} (${reason}): build the @nest-streams/rocksdb addon, or set rocksDBAllowUnboundedFallback: true to run with memory that grows with the stores`,
    );
  }
}

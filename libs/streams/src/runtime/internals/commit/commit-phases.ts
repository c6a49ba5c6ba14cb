/**
 * The points of a commit, in order, where the runtime reports progress to a test hook:
 *
 * - `caches-flushed`: the record caches were flushed into the stores (under exactly-once:
 *   into the engines' pending batches);
 * - `producer-flushed`: every changelog and output record is acknowledged;
 * - `transaction-committed` (exactly-once): the Kafka transaction committed, the state not yet
 *   written to RocksDB;
 * - `state-committed` (exactly-once): the transaction's writes were handed to RocksDB, which
 *   writes them to its memtables in the background (reads see them meanwhile; the next commit
 *   and the checkpoint's flush wait for them);
 * - `stores-flushed`: the engines' memtables were flushed for a checkpoint, not yet written;
 * - `checkpoint-written`: the checkpoint file was replaced;
 * - `offsets-committed` (at-least-once): the consumer committed the input offsets.
 */
export type CommitPhase =
  | 'caches-flushed'
  | 'producer-flushed'
  | 'transaction-committed'
  | 'state-committed'
  | 'stores-flushed'
  | 'checkpoint-written'
  | 'offsets-committed';

let hook: ((phase: CommitPhase, taskId: string) => void) | undefined;

/**
 * Sets (or, with undefined, removes) the function called at each commit phase of every task of
 * the process. For fault-injection tests (the crash tests kill the process inside it); it runs
 * synchronously on the commit path, so it must be fast and must not throw.
 */
export function setCommitPhaseHook(
  next: ((phase: CommitPhase, taskId: string) => void) | undefined,
): void {
  hook = next;
}

/** Reports that `taskId`'s commit reached `phase`. */
export function commitPhase(phase: CommitPhase, taskId: string): void {
  hook?.(phase, taskId);
}

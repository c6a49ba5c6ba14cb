import { setCommitPhaseHook, type CommitPhase } from '@nest-streams/streams/internals';

export type { CommitPhase };

/**
 * Fault injection for crash tests against a real broker: `listener` is called, synchronously, at
 * each phase a task's commit reaches in this process (`caches-flushed`, `producer-flushed`,
 * `transaction-committed` and `state-committed` under exactly-once, `stores-flushed` and
 * `checkpoint-written` for checkpoints, `offsets-committed` under at-least-once), for example to
 * SIGKILL the process at one of them and check that a restart restores exact state.
 *
 * It runs on the commit path: keep it fast, and do not throw (an exception fails the commit or
 * the checkpoint in progress). One listener per process: a second call replaces the first.
 * Returns a function that removes it.
 */
export function onCommitPhase(listener: (phase: CommitPhase, taskId: string) => void): () => void {
  setCommitPhaseHook(listener);
  return () => setCommitPhaseHook(undefined);
}

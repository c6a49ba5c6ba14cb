import { TaskCreationCancelledError } from '../../../errors/internals/task-creation-cancelled.error';

interface RunningCreation {
  readonly controller: AbortController;
  promise?: Promise<unknown>;
}

/**
 * The active tasks being created (stores opened, changelogs restored), each cancellable. Kafka
 * Streams closes a task still restoring as soon as a rebalance revokes it; so does a stream
 * thread here, instead of waiting for a restore that may take minutes while the task's new
 * owner (and, under cooperative rebalancing or the streams protocol, the whole group's next
 * assignment) waits for the partitions to be given up.
 */
export class TaskCreations {
  private readonly running = new Map<string, RunningCreation>();

  /**
   * Runs `create` for task `taskId` with a signal that {@link cancel} aborts. When it fails
   * after the signal aborted, `cleanUp` closes what it opened, and the creation rejects with a
   * TaskCreationCancelledError (its cause: the error the abort caused).
   */
  run<T>(
    taskId: string,
    create: (signal: AbortSignal) => Promise<T>,
    cleanUp: () => Promise<void>,
  ): Promise<T> {
    const controller = new AbortController();
    const running: RunningCreation = { controller };
    this.running.set(taskId, running);
    const promise = (async () => {
      try {
        const created = await create(controller.signal);
        controller.signal.throwIfAborted();
        return created;
      } catch (error) {
        if (!controller.signal.aborted) throw error;
        await cleanUp();
        throw new TaskCreationCancelledError(taskId, { cause: error });
      } finally {
        if (this.running.get(taskId) === running) this.running.delete(taskId);
      }
    })();
    running.promise = promise;
    return promise;
  }

  /** Task `taskId`'s creation while it runs (it may reject; see {@link run}). */
  pending(taskId: string): Promise<unknown> | undefined {
    return this.running.get(taskId)?.promise;
  }

  /** The tasks being created. */
  taskIds(): string[] {
    return [...this.running.keys()];
  }

  /**
   * Cancels the creations of those of `taskIds` still running, and settles once each ended
   * (cancelled, or finished or failed before the cancellation reached it).
   */
  async cancel(taskIds: Iterable<string>): Promise<void> {
    const cancelled: Promise<unknown>[] = [];
    for (const id of taskIds) {
      const creation = this.running.get(id);
      if (!creation?.promise) continue;
      creation.controller.abort();
      cancelled.push(creation.promise.catch(() => undefined));
    }
    await Promise.all(cancelled);
  }
}

/** Whether `error` is a cancelled creation (not a failure: see TaskCreationCancelledError). */
export function isCreationCancelled(error: unknown): boolean {
  return error instanceof TaskCreationCancelledError;
}

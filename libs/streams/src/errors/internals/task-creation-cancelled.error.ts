import { StreamsError } from '../streams.error';

/**
 * An active task's creation (its stores opened, its changelogs restored) was cancelled: a
 * rebalance took the task away, the thread stopped, or its tasks migrated. The task closed with
 * a checkpoint of what its restore wrote, so its next restore here reads only the rest.
 *
 * What to do: nothing. It is not a failure; the assignment code ignores it, and the task is
 * created again if an assignment gives it back.
 */
export class TaskCreationCancelledError extends StreamsError.coded(
  'TASK_CREATION_CANCELLED',
  true,
) {
  constructor(
    /** The task, e.g. `0_3`. */
    readonly taskId: string,
    options?: { cause?: unknown },
  ) {
    super(`The creation of task ${taskId} was cancelled before it was restored.`, options);
  }
}

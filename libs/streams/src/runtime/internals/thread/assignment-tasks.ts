import type { AssignmentInfo } from '../../../cluster/internals/assignment-info';
import type { StateLogger } from '../../../logging/logger';
import type { ActiveTaskManager } from '../active-tasks/active-task-manager';
import type { GroupAssignment, GroupConsumer } from '../../../client/group-consumer';
import type { StandbyTaskManager } from '../standby/standby-task-manager';
import { isCreationCancelled } from '../active-tasks/task-creations';

/** What a stream thread changes its tasks with when an assignment arrives. */
export interface AssignmentTasksContext {
  readonly tasks: ActiveTaskManager;
  readonly standbys: StandbyTaskManager;
  readonly logger: StateLogger;
  /** KIP-429: a lost task has no other owner before this member gave it up. */
  readonly cooperative: boolean;
  /** Commits the tasks' offsets (in the generation the thread commits in). */
  readonly committer: Pick<GroupConsumer, 'commitOffsets' | 'groupMetadata'>;
}

/**
 * Closes the active tasks the assignment no longer gives this member. Their processed work is
 * committed first and they close cleanly (checkpointed, their directories kept for a later
 * assignment or a standby), except under exactly-once with one transaction per thread in an
 * eager rebalance: work done since the commit before the rebalance would then commit in the new
 * generation for partitions that may have a new owner already, and the thread's transaction
 * holds every task's, so every task closes dirty (kept ones are created again). Cooperative:
 * nobody owns a lost task before this member gives it up, so its work commits. A lost task still
 * restoring (cooperative: an earlier assignment's creation runs beside processing) is closed at
 * once, as Kafka Streams closes a revoked restoring task: its new owner does not wait for it.
 */
export async function closeLostTasks(
  { tasks, logger, cooperative, committer }: AssignmentTasksContext,
  info: AssignmentInfo,
): Promise<void> {
  const wanted = new Set(info.active);
  await tasks.cancelCreations(wanted);
  const lost = tasks.taskIds().filter((id) => !wanted.has(id));
  if (lost.length === 0) return;
  const uncommitted = tasks.tasks().some((e) => e.restored && e.task.commitNeeded());
  if (tasks.transactionPerThread && uncommitted && !cooperative) {
    logger.warn(
      `tasks ${lost.join(', ')} were lost with uncommitted work; closing every task dirty`,
    );
    for (const id of tasks.taskIds()) await tasks.close(id, false);
    return;
  }
  try {
    await tasks.commit(committer, true);
  } catch (error) {
    logger.warn(`commit before closing tasks ${lost.join(', ')} failed: ${String(error)}`);
  }
  for (const id of lost) await tasks.close(id, true);
}

/** What the thread does once an assignment's tasks are open (see {@link openAssignedTasks}). */
export interface AssignedTasksOpened {
  /** Maps the tasks, resumes their input, reports RUNNING. */
  started(): void;
  /** Runs `fn` in the thread's queue (after the batch or commit in progress). */
  queued(fn: () => Promise<void>): Promise<void>;
  /** Whether the assignment is still the thread's latest (not superseded, stopping or failed). */
  current(): boolean;
  /** A task's creation failed (cooperative; eager: `openAssignedTasks` rejects). */
  failed(error: unknown): void;
}

/**
 * Creates the assignment's new active tasks, moves the standbys to the assigned ones, then
 * calls `opened.started`. A standby of a new task holds its state up to its lag: it is handed
 * over (checkpointed), so the active restores only the tail. New tasks restore side by side, as
 * Kafka Streams restores a thread's tasks with one consumer: one's fetch overlaps another's
 * store writes.
 *
 * Eager: resolves once the tasks are open. Cooperative: resolves at once; the kept tasks
 * process on while the new ones restore, and the standbys and `started` follow in the thread's
 * queue unless a later assignment superseded this one (it cancels the creation of a task it
 * takes away, see closeLostTasks).
 *
 * @throws (eager) the first task creation's error (the others were still awaited).
 */
export async function openAssignedTasks(
  context: AssignmentTasksContext,
  info: AssignmentInfo,
  opened: AssignedTasksOpened,
): Promise<void> {
  if (!context.cooperative) {
    await createAssignedTasks(context, info);
    if (!opened.current()) return; // stopping: its creations were cancelled
    await assignStandbys(context, info);
    opened.started();
    return;
  }
  void createAssignedTasks(context, info).then(
    () =>
      opened.queued(async () => {
        if (!opened.current()) return;
        await assignStandbys(context, info);
        opened.started();
      }),
    (error: unknown) => opened.failed(error),
  );
}

/**
 * The assignment's active tasks: creates the new ones, and waits for those an earlier
 * assignment is still creating (cooperative). A creation cancelled meanwhile (a later
 * assignment took the task away, or the thread stops) is not a failure.
 *
 * @throws the first task creation's error (the others were still awaited).
 */
async function createAssignedTasks(
  { tasks, standbys }: AssignmentTasksContext,
  info: AssignmentInfo,
): Promise<void> {
  const earlier = info.active.flatMap((id) => tasks.creationOf(id) ?? []);
  const created = info.active.filter((id) => !tasks.get(id) && !tasks.creationOf(id));
  for (const id of created) await standbys.release(id);
  const creations = await Promise.allSettled([
    ...earlier,
    ...created.map((id) => tasks.create(id)),
  ]);
  const failure = creations.find((c) => c.status === 'rejected' && !isCreationCancelled(c.reason));
  if (failure) throw (failure as PromiseRejectedResult).reason;
}

/** Moves the standbys to the assignment's (those of its active tasks are not kept). */
async function assignStandbys(
  { standbys }: AssignmentTasksContext,
  info: AssignmentInfo,
): Promise<void> {
  const active = new Set(info.active);
  await standbys.assign(info.standby.filter((id) => !active.has(id)));
}

/**
 * Cooperative: whether the host map gives this client a task its assignment holds back (it comes
 * in the follow-up rebalance, once its owner gave it up).
 */
export function handoverPending(info: AssignmentInfo): boolean {
  const mine = info.hosts.find((h) => h.processId === info.processId);
  return mine?.active.some((id) => !info.active.includes(id)) ?? false;
}

/**
 * Whether an assignment gives this client exactly the tasks it holds (active, and standby with
 * its warm-ups): a new host map only. The streams protocol (KIP-1071) sends one when another
 * member's endpoint changes, e.g. a static member restarted under a new member id; the client
 * then stays RUNNING, as Kafka Streams does.
 */
export function keepsTasks(
  info: Pick<AssignmentInfo, 'active' | 'standby'>,
  held: { readonly active: readonly string[]; readonly standby: readonly string[] },
): boolean {
  const same = (a: readonly string[], b: readonly string[]) =>
    a.length === b.length && [...a].sort().join() === [...b].sort().join();
  return same(info.active, held.active) && same(info.standby, held.standby);
}

/** The active tasks none of whose input partitions `assignment` gives the member. */
export function lostTasks(
  tasks: Pick<ActiveTaskManager, 'tasks'>,
  assignment: Pick<GroupAssignment, 'partitions'>,
): string[] {
  const assigned = new Set(
    assignment.partitions.flatMap(({ topic, partitions }) =>
      partitions.map((p) => `${topic}:${p}`),
    ),
  );
  return tasks
    .tasks()
    .filter(
      (e) => !e.partitions.some(({ topic, partition }) => assigned.has(`${topic}:${partition}`)),
    )
    .map((e) => e.task.id.toString());
}

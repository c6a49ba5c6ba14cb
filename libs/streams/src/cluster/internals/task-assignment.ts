/** What one client (process) told the leader in its subscription. */
export interface ClientState {
  /** Stable across restarts (the state directory's process id). */
  readonly processId: string;
  /** Consumer member ids of this process (one per stream thread; we run one). */
  readonly memberIds: readonly string[];
  /** `application.server`, if set. */
  readonly endpoint?: string;
  /** Tasks the client holds local state for, and the offset sum of that state. */
  readonly taskOffsetSums: Readonly<Record<string, number>>;
  /** Tasks it ran as active in the previous generation. */
  readonly previousActive: readonly string[];
}

/** Inputs of the task assignment. */
export interface AssignmentInput {
  readonly clients: readonly ClientState[];
  /** Every task id, e.g. `0_0`.. in sub-topology then partition order. */
  readonly tasks: readonly string[];
  /** Tasks with state stores (eligible for standbys and lag-aware placement). */
  readonly statefulTasks: ReadonlySet<string>;
  /**
   * Changelog end-offset sums per stateful task (for lag; a task missing has no changelog:
   * nothing to restore). `undefined`: the leader could not fetch them, every lag is unknown.
   */
  readonly taskEndOffsetSums: Readonly<Record<string, number>> | undefined;
  readonly numStandbyReplicas: number;
  readonly acceptableRecoveryLag: number;
  readonly maxWarmupReplicas: number;
}

/** What each client runs. */
export interface ClientAssignment {
  readonly active: string[];
  readonly standby: string[];
  /** Standbys placed to restore before taking a task over (they count as standbys). */
  readonly warmup: string[];
}

/**
 * The assignment: per process id. `probingRebalanceNeeded` when warm-ups were placed, or the
 * lags were unknown (the probing rebalance fetches them again).
 */
export interface AssignmentResult {
  readonly clients: Map<string, ClientAssignment>;
  readonly probingRebalanceNeeded: boolean;
}

/** The lag of a client without a running active while end offsets are unknown (minus its state). */
const UNKNOWN_LAG = Number.MAX_SAFE_INTEGER;

/**
 * Assigns tasks to clients the way Kafka Streams' high-availability assignor does, simplified:
 *
 * 1. Balanced and sticky: every client gets `floor` or `ceil` of tasks/clients active tasks;
 *    a task stays with its previous owner while that keeps the balance.
 * 2. Lag-aware: a stateful task goes to a client whose local state is caught up (lag <=
 *    `acceptable.recovery.lag`) when one exists; if the balanced target is not caught up, the
 *    task stays (or goes) where it is caught up and the target gets a warm-up replica (at most
 *    `max.warmup.replicas` in total), and a probing rebalance moves it once warm. While the
 *    changelogs' end offsets are unknown, only a task's running active is caught up (Kafka
 *    Streams keeps the previous assignment then); clients with more local state rank first.
 * 3. Standbys: `num.standby.replicas` per stateful task, never on the active's process, on the
 *    clients with the most local state for it first, then the least loaded.
 */
export function assignTasks(input: AssignmentInput): AssignmentResult {
  const clients = [...input.clients].sort((a, b) => a.processId.localeCompare(b.processId));
  const result = new Map<string, ClientAssignment>(
    clients.map((c) => [c.processId, { active: [], standby: [], warmup: [] }]),
  );
  if (clients.length === 0) return { clients: result, probingRebalanceNeeded: false };

  const lag = (client: ClientState, task: string): number => {
    const local = client.taskOffsetSums[task];
    if (local !== undefined && local < 0) return 0; // -2: a running active task: caught up by definition
    // Unknown end offsets: never caught up; the more local state, the smaller the lag.
    if (input.taskEndOffsetSums === undefined) return UNKNOWN_LAG - (local ?? 0);
    // No local state: the whole changelog is the lag (small changelogs are "caught up").
    return Math.max(0, (input.taskEndOffsetSums[task] ?? 0) - (local ?? 0));
  };
  const caughtUp = (client: ClientState, task: string): boolean =>
    !input.statefulTasks.has(task) || lag(client, task) <= input.acceptableRecoveryLag;

  const owner = new Map<string, string>();
  // Balance: every client gets `floor` or `ceil` active tasks, and only `tasks % clients` of
  // them `ceil` (all of them when it divides evenly), so that no client is left below `floor`:
  // 6 tasks on 4 clients are 2, 2, 1, 1, never 2, 2, 2, 0 (a joining client would get nothing).
  const floor = Math.floor(input.tasks.length / clients.length);
  const capacity = Math.ceil(input.tasks.length / clients.length);
  let ceilSlots = floor === capacity ? clients.length : input.tasks.length % clients.length;
  const load = (processId: string): number => result.get(processId)!.active.length;
  const hasRoom = (processId: string): boolean =>
    load(processId) < floor || (load(processId) < capacity && ceilSlots > 0);
  const give = (processId: string, task: string): void => {
    result.get(processId)!.active.push(task);
    owner.set(task, processId);
    if (floor !== capacity && load(processId) === capacity) ceilSlots--;
  };
  const pendingWarmups: { task: string; client: string }[] = [];

  // 1. Sticky: keep previous owners while they have room.
  for (const task of input.tasks) {
    const previous = clients.find((c) => c.previousActive.includes(task));
    if (previous && hasRoom(previous.processId)) give(previous.processId, task);
  }
  // 2. The rest: prefer a caught-up client with room, then the least loaded; ties by process id.
  for (const task of input.tasks) {
    if (owner.has(task)) continue;
    const withRoom = clients.filter((c) => hasRoom(c.processId));
    const candidates = withRoom.length > 0 ? withRoom : clients;
    const ranked = [...candidates].sort(
      (a, b) =>
        Number(caughtUp(b, task)) - Number(caughtUp(a, task)) ||
        lag(a, task) - lag(b, task) ||
        load(a.processId) - load(b.processId) ||
        a.processId.localeCompare(b.processId),
    );
    let chosen = ranked[0];
    // A stateful task whose best balanced owner is not caught up stays where it is caught up,
    // if such a client exists; the balanced owner warms up instead.
    let warmupTarget: ClientState | undefined;
    if (input.statefulTasks.has(task) && !caughtUp(chosen, task)) {
      const warm = clients
        .filter((c) => caughtUp(c, task))
        .sort((a, b) => lag(a, task) - lag(b, task) || load(a.processId) - load(b.processId))[0];
      if (warm) {
        warmupTarget = chosen;
        chosen = warm;
      }
    }
    give(chosen.processId, task);
    if (warmupTarget) pendingWarmups.push({ task, client: warmupTarget.processId });
  }

  // 3. Standbys.
  for (const task of input.tasks) {
    if (!input.statefulTasks.has(task)) continue;
    const active = owner.get(task)!;
    const ranked = clients
      .filter((c) => c.processId !== active)
      .sort(
        (a, b) =>
          lag(a, task) - lag(b, task) ||
          result.get(a.processId)!.standby.length - result.get(b.processId)!.standby.length ||
          a.processId.localeCompare(b.processId),
      );
    for (const client of ranked.slice(0, input.numStandbyReplicas)) {
      result.get(client.processId)!.standby.push(task);
    }
  }

  // Warm-ups: a standby on the intended owner (unless it already has one), capped.
  let warmups = 0;
  for (const { task, client } of pendingWarmups) {
    const assignment = result.get(client)!;
    if (assignment.standby.includes(task)) {
      assignment.warmup.push(task);
      warmups++;
      continue;
    }
    if (warmups >= input.maxWarmupReplicas) continue;
    assignment.standby.push(task);
    assignment.warmup.push(task);
    warmups++;
  }
  for (const assignment of result.values()) {
    assignment.active.sort(compareTaskIds);
    assignment.standby.sort(compareTaskIds);
    assignment.warmup.sort(compareTaskIds);
  }
  const lagsUnknown = input.taskEndOffsetSums === undefined && input.statefulTasks.size > 0;
  return { clients: result, probingRebalanceNeeded: warmups > 0 || lagsUnknown };
}

/** Orders `s_p` task ids by sub-topology, then partition. */
export function compareTaskIds(a: string, b: string): number {
  const [as, ap] = a.split('_').map(Number);
  const [bs, bp] = b.split('_').map(Number);
  return as - bs || ap - bp;
}

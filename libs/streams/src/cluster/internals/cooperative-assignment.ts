import { compareTaskIds, type ClientAssignment } from './task-assignment';

/** A client's claim on the tasks it runs now, from its subscription. */
export interface TaskClaims {
  readonly processId: string;
  /** The active tasks it runs. */
  readonly owned: readonly string[];
  /** The generation it holds them in; undefined: unknown (the oldest claim). */
  readonly generation: number | undefined;
}

/**
 * The owner of every claimed task: the client that runs it, and when two clients claim one (a
 * member that lost its membership still claims what it had), the one with the newer generation;
 * equal generations go to the first process id.
 */
export function currentOwners(claims: readonly TaskClaims[]): Map<string, string> {
  const owners = new Map<string, { processId: string; generation: number }>();
  for (const claim of claims) {
    const generation = claim.generation ?? -1;
    for (const task of claim.owned) {
      const known = owners.get(task);
      if (
        !known ||
        generation > known.generation ||
        (generation === known.generation && claim.processId < known.processId)
      ) {
        owners.set(task, { processId: claim.processId, generation });
      }
    }
  }
  return new Map([...owners].map(([task, o]) => [task, o.processId]));
}

/**
 * The first of KIP-429's two rebalances: a task whose target owner is not the client running
 * it now is left out of the target's active tasks (its current owner is not given it either,
 * so it gives it up and rejoins; the follow-up rebalance then assigns it to its target, whom
 * nobody contests any more). Meanwhile a stateful task moving to a client is a standby there,
 * so the client keeps (or starts) catching up on its state. Returns the adjusted assignments
 * and how many tasks were held back.
 */
export function holdBackMovingTasks(
  target: ReadonlyMap<string, ClientAssignment>,
  owners: ReadonlyMap<string, string>,
  statefulTasks: ReadonlySet<string>,
): { clients: Map<string, ClientAssignment>; heldBack: number } {
  const clients = new Map<string, ClientAssignment>();
  let heldBack = 0;
  for (const [processId, assignment] of target) {
    const moving = assignment.active.filter((task) => {
      const owner = owners.get(task);
      return owner !== undefined && owner !== processId;
    });
    heldBack += moving.length;
    const standby = [
      ...assignment.standby,
      ...moving.filter((t) => statefulTasks.has(t) && !assignment.standby.includes(t)),
    ];
    clients.set(processId, {
      active: assignment.active.filter((t) => !moving.includes(t)),
      standby: standby.sort(compareTaskIds),
      warmup: [...assignment.warmup],
    });
  }
  return { clients, heldBack };
}

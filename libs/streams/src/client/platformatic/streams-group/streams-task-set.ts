import type { TaskIds } from './streams-group-structs';

/** A member's tasks by kind, as task ids `<subtopologyId>_<partition>`, sorted. */
export interface StreamsTaskSet {
  readonly active: readonly string[];
  readonly standby: readonly string[];
  readonly warmup: readonly string[];
}

/** No tasks. */
export const NO_TASKS: StreamsTaskSet = { active: [], standby: [], warmup: [] };

/** Task ids of the broker's lists, sorted; `null` (unchanged) stays `null`. */
export function taskIdsOf(lists: readonly TaskIds[] | null): string[] | null {
  if (lists === null) return null;
  return lists
    .flatMap((t) => t.partitions.map((p) => `${t.subtopologyId}_${p}`))
    .sort(compareTaskIds);
}

/** The broker's lists of task ids, one per sub-topology, partitions sorted. */
export function taskIdsFor(ids: readonly string[]): TaskIds[] {
  const bySubtopology = new Map<string, number[]>();
  for (const id of ids) {
    const cut = id.lastIndexOf('_');
    const sub = id.slice(0, cut);
    bySubtopology.set(sub, [...(bySubtopology.get(sub) ?? []), Number(id.slice(cut + 1))]);
  }
  return [...bySubtopology].map(([subtopologyId, partitions]) => ({
    subtopologyId,
    partitions: partitions.sort((a, b) => a - b),
  }));
}

function compareTaskIds(a: string, b: string): number {
  const [sa, pa] = [a.slice(0, a.lastIndexOf('_')), Number(a.slice(a.lastIndexOf('_') + 1))];
  const [sb, pb] = [b.slice(0, b.lastIndexOf('_')), Number(b.slice(b.lastIndexOf('_') + 1))];
  if (sa !== sb) return sa.localeCompare(sb, 'en', { numeric: true });
  return pa - pb;
}

/** Whether two task sets list the same tasks (each list sorted). */
export function sameTasks(a: StreamsTaskSet, b: StreamsTaskSet): boolean {
  const same = (x: readonly string[], y: readonly string[]) =>
    x.length === y.length && x.every((v, i) => v === y[i]);
  return same(a.active, b.active) && same(a.standby, b.standby) && same(a.warmup, b.warmup);
}

import type { LocalStore } from '../../../query/internals/local-store-provider';
import type { Position } from '../../../query/position';
import type { LagInfo } from '../../../query/streams-metadata';
import type { ActiveTaskManager } from '../active-tasks/active-task-manager';
import type { StandbyTaskManager } from '../standby/standby-task-manager';
import type { ClusterAdmin } from '../../../client/cluster-admin';
import { fetchTopicOffsetsSettled } from '../../../client/topic-admin';

/**
 * What this instance holds locally, for queries: each store's copies (active and standby),
 * an active task's input position (read-your-writes), and each copy's changelog lag.
 */
export class LocalTaskView {
  /** The warm-up replicas of the latest assignment (a subset of the standby tasks). */
  private warmup: readonly string[] = [];

  constructor(
    private readonly active: () => ActiveTaskManager | undefined,
    private readonly standbys: () => StandbyTaskManager | undefined,
  ) {}

  /** Notes the warm-up replicas of a new assignment. */
  assigned(warmup: readonly string[]): void {
    this.warmup = warmup;
  }

  /** The active tasks with their stores (empty before the first assignment). */
  activeTasks(): ReturnType<ActiveTaskManager['tasks']> {
    return this.active()?.tasks() ?? [];
  }

  /** Local task ids: active, standby, and the standbys that are warm-up replicas. */
  taskIds(): { active: string[]; standby: string[]; warmup: string[] } {
    const standby = this.standbys()?.taskIds() ?? [];
    const warmup = this.warmup.filter((id) => standby.includes(id));
    return { active: this.active()?.taskIds() ?? [], standby, warmup };
  }

  /**
   * Local copies of `storeName` that queries may read: the active copies of restored tasks
   * (lag 0), and standby copies whose lag is known. A task still restoring holds partial state
   * and is left out, as is a standby before its changelog's end is known, and an active task an
   * eager assignment took away (see `ActiveTaskManager.suspendQueries`).
   */
  stores(storeName: string): LocalStore[] {
    const result: LocalStore[] = [];
    const active = this.active();
    for (const entry of active?.tasks() ?? []) {
      const store = queryableActiveStore(active!, entry, storeName);
      if (store) {
        result.push({
          taskId: entry.task.id.toString(),
          partition: entry.task.id.partition,
          active: true,
          lag: 0,
          store,
        });
      }
    }
    const standbys = this.standbys();
    for (const standby of standbys?.all() ?? []) {
      const store = standby.store(storeName);
      const lag = queryableStandbyLag(standbys!, standby, storeName);
      if (store && lag !== undefined)
        result.push({
          taskId: standby.id.toString(),
          partition: standby.id.partition,
          active: false,
          lag,
          store,
        });
    }
    return result;
  }

  /**
   * Which queryable copy of `partition` of `storeName` this instance holds, as {@link stores}
   * counts them: `'active'` when one of them is active, `'standby'` when only standbys are,
   * `undefined` when none is (looked up without listing every copy: routing asks per request).
   */
  copyOf(storeName: string, partition: number): 'active' | 'standby' | undefined {
    const active = this.active();
    for (const entry of active?.tasks() ?? []) {
      if (entry.task.id.partition !== partition) continue;
      if (queryableActiveStore(active!, entry, storeName)) return 'active';
    }
    const standbys = this.standbys();
    for (const standby of standbys?.all() ?? []) {
      if (standby.id.partition !== partition) continue;
      if (queryableStandbyLag(standbys!, standby, storeName) !== undefined) return 'standby';
    }
    return undefined;
  }

  /** The offset of the last input record an active task processed, per input partition. */
  position(taskId: string): Position {
    const position: Record<string, Record<string, number>> = {};
    for (const { topic, partition, offset } of this.active()?.get(taskId)?.task.inputPositions() ??
      []) {
      (position[topic] ??= {})[String(partition)] = offset - 1;
    }
    return position;
  }

  /**
   * Per store and partition, how far each local copy is behind its changelog: standbys against
   * the changelog end (fetched now), restored actives 0. Tasks still restoring are left out
   * (their progress is the restore listener's to tell), as are standbys whose changelog end
   * could not be fetched.
   */
  async lags(applicationId: string): Promise<Map<string, Map<number, LagInfo>>> {
    const standbys = this.standbys();
    await standbys?.refreshEndOffsets().catch(() => undefined);
    const result = standbys?.lags() ?? new Map<string, Map<number, LagInfo>>();
    for (const entry of this.active()?.tasks() ?? []) {
      if (!entry.restored) continue;
      for (const { topic, partition, offset } of entry.stateManager.changelogOffsets()) {
        const store = topic.slice(applicationId.length + 1, -'-changelog'.length);
        let perStore = result.get(store);
        if (!perStore) result.set(store, (perStore = new Map()));
        const at = offset + 1;
        perStore.set(partition, { currentOffsetPosition: at, endOffsetPosition: at, offsetLag: 0 });
      }
    }
    return result;
  }

  /**
   * Consumer lag of the active tasks: per input partition, the end offset minus the next
   * offset to process (fetched now from the broker).
   */
  async inputLags(
    admin: ClusterAdmin,
  ): Promise<
    { topic: string; partition: number; position: number; endOffset: number; lag: number }[]
  > {
    const positions = (this.active()?.tasks() ?? []).flatMap((e) => e.task.inputPositions());
    const ends = new Map<string, number>();
    for (const topic of new Set(positions.map((p) => p.topic))) {
      for (const o of await fetchTopicOffsetsSettled(admin, topic))
        ends.set(`${topic}:${o.partition}`, o.high);
    }
    return positions
      .map(({ topic, partition, offset }) => {
        const endOffset = Math.max(ends.get(`${topic}:${partition}`) ?? offset, offset);
        return { topic, partition, position: offset, endOffset, lag: endOffset - offset };
      })
      .sort((a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition);
  }
}

/**
 * The store of an active task that queries may read (the one rule of {@link LocalTaskView}'s
 * `stores` and `copyOf`): restored, answering queries (not taken away by an eager assignment
 * nor in doubt), and holding `storeName`.
 */
function queryableActiveStore(
  active: ActiveTaskManager,
  entry: ReturnType<ActiveTaskManager['tasks']>[number],
  storeName: string,
): ReturnType<typeof entry.task.store> | undefined {
  if (!entry.restored || !active.answersQueries(entry.task.id.toString())) return undefined;
  return entry.task.store(storeName);
}

/** The lag of a standby task's copy of `storeName` when queries may read it: it holds the store and its changelog's end is known. */
function queryableStandbyLag(
  standbys: StandbyTaskManager,
  standby: ReturnType<StandbyTaskManager['all']>[number],
  storeName: string,
): number | undefined {
  return standby.store(storeName) ? standbys.storeLag(standby, storeName) : undefined;
}

import type { ActiveTaskEntry } from '../active-tasks/active-task-entry';
import type { ActiveTaskManager } from '../active-tasks/active-task-manager';
import { LocalTaskView } from './local-task-view';
import type { StandbyTask } from '../standby/standby-task';
import type { StandbyTaskManager } from '../standby/standby-task-manager';

/** An active task entry of `0_<partition>` holding `stats` (restored or still restoring). */
function activeEntry(partition: number, restored: boolean, offset: number): ActiveTaskEntry {
  const store = { name: 'stats', partition };
  return {
    restored,
    task: {
      id: { partition, toString: () => `0_${partition}` },
      store: (name: string) => (name === 'stats' ? store : undefined),
      inputPositions: () => [],
    },
    stateManager: {
      changelogOffsets: () => [{ topic: 'app-stats-changelog', partition, offset }],
    },
  } as unknown as ActiveTaskEntry;
}

function standby(partition: number): StandbyTask {
  const store = { name: 'stats', partition, standby: true };
  return {
    id: { partition, toString: () => `0_${partition}` },
    store: (name: string) => (name === 'stats' ? store : undefined),
  } as unknown as StandbyTask;
}

describe('LocalTaskView', () => {
  const active = [activeEntry(0, true, 41), activeEntry(1, false, 10)];
  const standbys = [standby(2), standby(3)];
  const lags = new Map<StandbyTask, number | undefined>([
    [standbys[0], 5],
    [standbys[1], undefined],
  ]);
  const givenUp = new Set<string>();
  const manager = { tasks: () => active, answersQueries: (id: string) => !givenUp.has(id) };
  const view = new LocalTaskView(
    () => manager as unknown as ActiveTaskManager,
    () =>
      ({
        all: () => standbys,
        storeLag: (task: StandbyTask) => lags.get(task),
        refreshEndOffsets: async () => undefined,
        lags: () =>
          new Map([
            [
              'stats',
              new Map([[2, { currentOffsetPosition: 1, endOffsetPosition: 6, offsetLag: 5 }]]),
            ],
          ]),
      }) as unknown as StandbyTaskManager,
  );

  it('offers restored actives and standbys of known lag, never a task still restoring', () => {
    expect(
      view.stores('stats').map(({ partition, active: isActive, lag }) => ({
        partition,
        active: isActive,
        lag,
      })),
    ).toEqual([
      { partition: 0, active: true, lag: 0 },
      { partition: 2, active: false, lag: 5 },
    ]);
    expect(view.stores('other')).toEqual([]);
  });

  it('offers no active copy of a task an eager assignment took away, standbys still', () => {
    givenUp.add('0_0');
    try {
      expect(
        view.stores('stats').map(({ partition, active: isActive }) => [partition, isActive]),
      ).toEqual([[2, false]]);
    } finally {
      givenUp.clear();
    }
    expect(view.stores('stats').map(({ partition }) => partition)).toEqual([0, 2]);
  });

  it('reports the lags of restored actives (0) and standbys, not of restoring tasks', async () => {
    const lagsByStore = await view.lags('app');
    expect([...(lagsByStore.get('stats') ?? new Map())].sort(([a], [b]) => a - b)).toEqual([
      [0, { currentOffsetPosition: 42, endOffsetPosition: 42, offsetLag: 0 }],
      [2, { currentOffsetPosition: 1, endOffsetPosition: 6, offsetLag: 5 }],
    ]);
  });
});

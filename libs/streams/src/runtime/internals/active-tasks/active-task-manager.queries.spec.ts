import { ActiveTaskManager, type ActiveTaskManagerOptions } from './active-task-manager';

/** A manager holding open tasks `ids` (entries only: what the query rule reads). */
function managerWith(ids: string[]): ActiveTaskManager {
  const manager = new ActiveTaskManager({
    config: { processingGuarantee: 'at_least_once' },
  } as unknown as ActiveTaskManagerOptions);
  const entries = (manager as unknown as { entries: Map<string, unknown> }).entries;
  for (const id of ids) entries.set(id, { task: { id: { toString: () => id } } });
  return manager;
}

describe('ActiveTaskManager queries during an eager rebalance', () => {
  it('answers for every open task but those the latest assignment took away', () => {
    const manager = managerWith(['0_0', '0_1', '0_2']);
    manager.suspendQueries(['0_1', '0_2', '0_9']); // 0_9 is not open here: ignored
    expect(['0_0', '0_1', '0_2', '0_9'].map((id) => manager.answersQueries(id))).toEqual([
      true,
      false,
      false,
      true,
    ]);
    // A later assignment gives 0_1 back before the first one was applied.
    manager.suspendQueries(['0_2']);
    expect(['0_0', '0_1', '0_2'].map((id) => manager.answersQueries(id))).toEqual([
      true,
      true,
      false,
    ]);
    manager.suspendQueries([]);
    expect(manager.answersQueries('0_2')).toBe(true);
  });

  it('ends the suspension of a task when it closes, so a task created again answers', async () => {
    const manager = managerWith(['0_1']);
    manager.suspendQueries(['0_1']);
    (manager as unknown as { entries: Map<string, unknown> }).entries.delete('0_1');
    await manager.close('0_1', true); // no entry left: only the suspension ends
    expect(manager.answersQueries('0_1')).toBe(true);
  });

  it('reads no task as the active copy while the membership is in doubt, and all again after', () => {
    const manager = managerWith(['0_0', '0_1']);
    manager.suspendQueries(['0_1']);
    manager.setMembershipInDoubt(true);
    expect(['0_0', '0_1'].map((id) => manager.answersQueries(id))).toEqual([false, false]);
    manager.setMembershipInDoubt(false);
    // The eager suspension is its own: still in force.
    expect(['0_0', '0_1'].map((id) => manager.answersQueries(id))).toEqual([true, false]);
  });
});

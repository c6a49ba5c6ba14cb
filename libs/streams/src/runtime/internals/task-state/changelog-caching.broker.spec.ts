import {
  TaskState,
  changelogEndOffset,
  useChangelogBroker,
} from '../../../../test-support/state-restore.broker-test-support';

describe('changelog with caching (real broker)', () => {
  const broker = useChangelogBroker();
  const openTask = async (caching: boolean): Promise<TaskState> => {
    const { ctx, producer } = broker;
    const task = new TaskState({
      ctx,
      stateDir: await broker.stateDir(),
      sender: producer,
      caching,
    });
    await task.open();
    return task;
  };

  it('sends only flushed values to the changelog when caching is on', async () => {
    const { ctx } = broker;
    const task = await openTask(true);
    await task.restore();
    for (let i = 0; i < 100; i++) task.store.put('alice', `a${i}`);
    for (let i = 0; i < 50; i++) task.store.put('bob', `b${i}`);
    task.store.delete('carol');
    expect(await changelogEndOffset(ctx)).toBe(0);

    await task.commit();
    expect(await changelogEndOffset(ctx)).toBe(3); // alice, bob, carol's tombstone

    for (let i = 0; i < 10; i++) task.store.put('alice', `again${i}`);
    await task.commit();
    expect(await changelogEndOffset(ctx)).toBe(4);
    expect(task.collector.offset(task.manager.changelogOffsets()[0].topic, 2)).toBe(3);
    await task.closeClean();
  });

  it('sends every write when caching is off', async () => {
    const { ctx } = broker;
    const task = await openTask(false);
    for (let i = 0; i < 100; i++) task.store.put('alice', `a${i}`);
    await task.commit();
    expect(await changelogEndOffset(ctx)).toBe(100);
    await task.closeClean();
  });
});

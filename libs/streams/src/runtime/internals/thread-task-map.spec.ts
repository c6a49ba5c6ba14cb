import { ThreadTaskMap } from './thread-task-map';

describe('ThreadTaskMap', () => {
  const partitions: Record<string, { topic: string; partition: number }[]> = {
    '0_0': [{ topic: 'a', partition: 0 }],
    '1_1': [
      { topic: 'b', partition: 1 },
      { topic: 'c', partition: 1 },
    ],
  };
  const tasks = { get: (id: string) => ({ partitions: partitions[id] }) as never };

  it('maps each input partition of the tasks to its task', () => {
    const map = new ThreadTaskMap(tasks);
    map.map(['0_0', '1_1']);
    expect([map.taskOf('a', 0), map.taskOf('c', 1), map.taskOf('a', 1)]).toEqual([
      '0_0',
      '1_1',
      undefined,
    ]);
    map.clear();
    expect(map.taskOf('a', 0)).toBeUndefined();
  });

  it('finds the partitions no task reads, dropping emptied topics', () => {
    const map = new ThreadTaskMap(tasks);
    map.map(['0_0', '1_1']);
    expect(
      map.unmapped([
        { topic: 'a', partitions: [0, 2] },
        { topic: 'b', partitions: [1] },
      ]),
    ).toEqual([{ topic: 'a', partitions: [2] }]);
  });

  it('lets closers wait for a creation beside processing, failed or not', async () => {
    const map = new ThreadTaskMap(tasks);
    let fail!: (e: Error) => void;
    const creation = new Promise<void>((_, reject) => (fail = reject));
    creation.catch(() => undefined);
    map.creatingBeside(creation);
    let settled = false;
    const waiting = map.creation().then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    fail(new Error('restore failed'));
    await waiting;
    expect(settled).toBe(true);
  });
});

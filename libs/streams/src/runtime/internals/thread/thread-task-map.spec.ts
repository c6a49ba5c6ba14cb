import { ThreadTaskMap } from './thread-task-map';

describe('ThreadTaskMap', () => {
  const partitions: Record<string, { topic: string; partition: number }[]> = {
    '0_0': [{ topic: 'a', partition: 0 }],
    '1_1': [
      { topic: 'b', partition: 1 },
      { topic: 'c', partition: 1 },
    ],
  };
  const tasks = { get: (id: string) => ({ partitions: partitions[id], restored: true }) as never };

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

  it('maps no task that is not open or still restoring', () => {
    const restoring = { '0_0': true, '1_1': false } as Record<string, boolean>;
    const map = new ThreadTaskMap({
      get: (id: string) =>
        id in restoring
          ? ({ partitions: partitions[id], restored: !restoring[id] } as never)
          : undefined,
    });
    map.map(['0_0', '1_1', '2_0']);
    expect([map.taskOf('a', 0), map.taskOf('b', 1), map.taskOf('c', 1)]).toEqual([
      undefined,
      '1_1',
      '1_1',
    ]);
  });
});

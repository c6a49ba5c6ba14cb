import { TopicPartitionTable } from './topic-partition-table';

describe('TopicPartitionTable', () => {
  it('keeps one value per topic and partition, counts entries, lists them by topic then partition', () => {
    const table = new TopicPartitionTable<string>();
    expect(table.get('a', 0)).toBeUndefined();
    table.set('b', 3, 'b3');
    table.set('a', 1, 'a1');
    table.set('b', 0, 'b0');
    table.set('b', 3, 'b3 again');
    expect(table.size).toBe(3);
    expect(table.get('b', 3)).toBe('b3 again');
    expect(table.get('b', 1)).toBeUndefined();
    expect(table.get('a', 1)).toBe('a1');
    expect(table.values()).toEqual(['b0', 'b3 again', 'a1']);
    table.clear();
    expect(table.size).toBe(0);
    expect(table.values()).toEqual([]);
    expect(table.get('a', 1)).toBeUndefined();
  });
});

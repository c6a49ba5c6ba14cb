import { Consumed } from '../../../kstream/consumed';
import { StreamsBuilder } from '../../../kstream/streams-builder';
import { Materialized } from '../../../kstream/materialized';
import { Serdes } from '../../../serde/serdes';
import type { KeyValueStore } from '../../../state/key-value-store';
import { RecordCache } from '../../../state/internals/record-cache';
import type { ConsumedRecord } from '../../../client/consumed-record';
import type { StreamTask } from './stream-task';
import { TestTasks } from '../../../../test-support/stream-task-test-support';

/**
 * The stream thread prepares a batch's next slice (deserialize, prefetch on RocksDB's pool)
 * before it runs the one before: the results must be those of processing in turn, whatever
 * the two slices share, with a cache small enough to evict between them.
 */
describe('StreamTask: a slice prepared while the one before runs', () => {
  const tasks = new TestTasks();
  afterAll(() => tasks.removeDirectories());

  async function countingTask(): Promise<{
    task: StreamTask;
    store: () => KeyValueStore<string, { value: number }>;
  }> {
    const builder = new StreamsBuilder();
    builder
      .stream('in', Consumed.with(Serdes.String(), Serdes.String()))
      .groupByKey()
      .count(Materialized.as<string, number>('counts'));
    const { task } = await tasks.create(builder.build(), {
      // A few dozen entries: evictions between the slices.
      config: { applicationId: 'pipeline', statestoreCacheMaxBytes: 2_000 },
      task: (config) => ({ cache: new RecordCache(config.statestoreCacheMaxBytes) }),
    });
    return {
      task,
      store: () => task.store('counts') as unknown as KeyValueStore<string, { value: number }>,
    };
  }

  const records = (keys: string[], from: number): ConsumedRecord[] =>
    keys.map((key, i) => ({
      topic: 'in',
      partition: 0,
      offset: from + i,
      timestamp: 1_000 + from + i,
      key: Buffer.from(key),
      value: Buffer.from('v'),
      headers: {},
    }));

  it('counts exactly when slices overlap in keys', async () => {
    const { task, store } = await countingTask();
    const keys = Array.from({ length: 300 }, (_, i) => `user-${i % 70}`);
    const slices = [
      records(keys.slice(0, 100), 0),
      records(keys.slice(100, 200), 100),
      records(keys.slice(200), 200),
    ];
    let next = task.prepare(slices[0]);
    for (let i = 0; i < slices.length; i++) {
      const current = next;
      await current.loaded;
      if (i + 1 < slices.length) next = task.prepare(slices[i + 1]);
      task.run(current);
    }
    await next.loaded;
    const expected = new Map<string, number>();
    for (const key of keys) expected.set(key, (expected.get(key) ?? 0) + 1);
    for (const [key, count] of expected)
      expect([key, store().get(key)?.value]).toEqual([key, count]);
    await task.flushState();
    for (const [key, count] of expected)
      expect([key, store().get(key)?.value]).toEqual([key, count]);
    expect(task.offsetsToCommit()).toEqual([{ topic: 'in', partition: 0, offset: 300 }]);
    await task.close(true);
  });
});

import { ProcessorStateError } from '../../../errors/processor-state.error';
import { TaskId } from '../../../processor/task-id';
import { ChangeLoggingBytesStore } from './change-logging-bytes-store';
import { InMemoryBytesStore } from '../in-memory-bytes.store';
import { KeyValueEngineLayer } from './key-value-engine-layer';
import { writeTimestamp } from '../ordered-bytes';
import { testStoreContext } from '../../../../test-support/store-test-support';

const b = (text: string): Buffer => Buffer.from(text);

describe('ChangeLoggingBytesStore', () => {
  async function open(options = {}) {
    const context = testStoreContext({ applicationId: 'orders', taskId: new TaskId(1, 4) });
    const store = new ChangeLoggingBytesStore(
      new KeyValueEngineLayer(new InMemoryBytesStore('stats-store')),
      options,
    );
    await store.init(context);
    return { context, store, collector: context.recordCollector };
  }

  it('sends every write to <applicationId>-<store>-changelog on the task partition', async () => {
    const { context, store, collector } = await open();
    expect(store.changelogTopic).toBe('orders-stats-store-changelog');
    context.timestamp = 1000;
    store.put(b('a'), b('1'));
    context.timestamp = 2000;
    store.putAll([
      { key: b('b'), value: b('2') },
      { key: b('a'), value: null },
    ]);
    expect(
      collector.records.map((r) => [
        r.topic,
        r.partition,
        r.key?.toString(),
        r.value?.toString() ?? null,
        r.timestamp,
      ]),
    ).toEqual([
      ['orders-stats-store-changelog', 4, 'a', '1', 1000],
      ['orders-stats-store-changelog', 4, 'b', '2', 2000],
      ['orders-stats-store-changelog', 4, 'a', null, 2000],
    ]);
    expect(store.get(b('a'))).toBeUndefined();
    expect(store.get(b('b'))).toEqual(b('2'));
  });

  it('logs a tombstone on delete and nothing when putIfAbsent finds a value', async () => {
    const { store, collector } = await open();
    store.put(b('a'), b('1'));
    expect(store.putIfAbsent(b('a'), b('9'))).toEqual(b('1'));
    expect(store.putIfAbsent(b('c'), b('3'))).toBeUndefined();
    expect(store.delete(b('a'))).toEqual(b('1'));
    expect(collector.records.map((r) => `${r.key}=${r.value ?? 'null'}`)).toEqual([
      'a=1',
      'c=3',
      'a=null',
    ]);
  });

  it('uses the write timestamp carried by a flushed cache entry', async () => {
    const { store, collector } = await open();
    store.putAll([{ key: b('a'), value: b('1'), timestamp: 42 } as never]);
    expect(collector.records[0].timestamp).toBe(42);
  });

  it('splits timestamped values: plain value, timestamp as record timestamp', async () => {
    const { store, collector } = await open({ timestampedValues: true });
    const value = Buffer.alloc(9);
    writeTimestamp(value, 123456, 0);
    value[8] = 7;
    store.put(b('a'), value);
    expect(collector.records[0].value).toEqual(Buffer.from([7]));
    expect(collector.records[0].timestamp).toBe(123456);
    expect(store.get(b('a'))).toEqual(value);
  });

  it('refuses to open without a record collector', async () => {
    const context = { ...testStoreContext(), recordCollector: undefined };
    const store = new ChangeLoggingBytesStore(new KeyValueEngineLayer(new InMemoryBytesStore('s')));
    await expect(store.init(context)).rejects.toBeInstanceOf(ProcessorStateError);
  });
});

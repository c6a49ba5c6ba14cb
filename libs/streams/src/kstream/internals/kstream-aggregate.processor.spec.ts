import { SyncReadUnavailableError } from '../../errors/sync-read-unavailable.error';
import { Record } from '../../processor/record';
import { Serdes } from '../../serde/serdes';
import { Stores } from '../../state/stores';
import { testStoreContext } from '../../../test-support/store-test-support';
import type { Change } from './change';
import { KStreamAggregateProcessor } from './kstream-aggregate.processor';
import {
  asyncOnlyTimestampedStore,
  countingDeserializations,
  FakeProcessorContext,
} from '../../../test-support/processor-test-support';

const str = Serdes.String();
const long = Serdes.Long();

/** A count processor over a timestamped store whose engine only reads asynchronously. */
async function asyncOnlyCount(caching: boolean) {
  const { store, engine, storeContext } = await asyncOnlyTimestampedStore(
    'counts',
    str,
    long,
    caching,
  );
  const context = FakeProcessorContext.withStores<string, Change<number>>({ counts: store });
  const processor = new KStreamAggregateProcessor<string, string, number>(
    'counts',
    (_k, _v, count) => (count ?? 0) + 1,
    false,
  );
  processor.init(context);
  return { processor, context, store, engine, storeContext };
}

describe('KStreamAggregateProcessor prefetch', () => {
  const batch = [
    new Record('a', 'x', 1),
    new Record('b', 'x', 2),
    new Record('a', 'x', 3),
    new Record<string, string>(null as unknown as string, 'x', 4),
  ];

  it('loads a batch with one multi-get, then processes it synchronously (caching off)', async () => {
    const { processor, context, engine } = await asyncOnlyCount(false);
    await processor.prefetch(batch);
    expect(engine.getManyAsyncCalls).toBe(1);
    for (const record of batch) processor.process(record);
    expect(context.take().map((r) => `${r.key}=${r.value.newValue}@${r.timestamp}`)).toEqual([
      'a=1@1',
      'b=1@2',
      'a=2@3',
    ]);
    expect(processor.dropped.total('null-key')).toBe(1);
    expect(engine.getAsyncCalls).toBe(0);
  });

  it('without the prefetch, a synchronous read of an async-only engine fails loudly', async () => {
    const { processor } = await asyncOnlyCount(false);
    expect(() => processor.process(batch[0])).toThrow(SyncReadUnavailableError);
  });

  it('with caching, emits nothing until the cache flushes, then one update per key', async () => {
    const { processor, context, engine, store, storeContext } = await asyncOnlyCount(true);
    await processor.prefetch(batch);
    expect(engine.getManyAsyncCalls).toBe(1);
    for (const record of batch) {
      storeContext.timestamp = record.timestamp;
      processor.process(record);
    }
    expect(context.forwarded).toHaveLength(0);
    await store.flush();
    expect(context.take().map((r) => `${r.key}=${r.value.newValue}@${r.timestamp}`)).toEqual([
      'a=2@3',
      'b=1@2',
    ]);
  });

  it('with no child to forward to, keeps no flush listener and forwards nothing', async () => {
    const { store, storeContext } = await asyncOnlyTimestampedStore('counts', str, long, true);
    const context = FakeProcessorContext.withStores<string, Change<number>>({ counts: store });
    context.children = false;
    const listen = jest.spyOn(store, 'setFlushListener');
    const processor = new KStreamAggregateProcessor<string, string, number>(
      'counts',
      (_k, _v, count) => (count ?? 0) + 1,
      false,
    );
    processor.init(context);
    expect(listen).not.toHaveBeenCalled();
    await processor.prefetch(batch);
    for (const record of batch) {
      storeContext.timestamp = record.timestamp;
      processor.process(record);
    }
    await store.flush();
    expect(context.forwarded).toHaveLength(0);
    expect(await store.getAsync('a')).toEqual({ value: 2, timestamp: 3 });
    expect(await store.getAsync('b')).toEqual({ value: 1, timestamp: 2 });
  });
});

describe('KStreamAggregateProcessor with the record cache keeping aggregates', () => {
  interface Tally {
    n: number;
    seen: string[];
  }
  /** An in-memory timestamped store with caching, and an aggregate that mutates in place. */
  async function tally(sendOldValues: boolean) {
    const { serde, counted } = countingDeserializations(Serdes.Json<Tally>());
    const store = Stores.timestampedKeyValueStoreBuilder(
      Stores.inMemoryKeyValueStore('tallies'),
      str,
      serde,
    )
      .withCachingEnabled()
      .build();
    const storeContext = testStoreContext();
    await store.init(storeContext);
    const context = FakeProcessorContext.withStores<string, Change<Tally>>({ tallies: store });
    const received: (Tally | undefined)[] = [];
    const processor = new KStreamAggregateProcessor<string, string, Tally>(
      'tallies',
      (_key, value, aggregate) => {
        received.push(aggregate);
        const t = aggregate ?? { n: 0, seen: [] };
        t.n++;
        t.seen.push(value);
        if (value === 'boom') throw new Error('aggregator failed after mutating');
        return t;
      },
      sendOldValues,
    );
    processor.init(context);
    const process = (key: string, value: string, timestamp: number) => {
      storeContext.timestamp = timestamp;
      processor.process(new Record(key, value, timestamp));
    };
    return { store, context, processor, received, counted, process };
  }

  it('hands the aggregator the object it returned last, deserializing nothing', async () => {
    const { received, counted, process, store, context } = await tally(false);
    process('a', 'x1', 1);
    process('a', 'x2', 2);
    process('b', 'y1', 3);
    process('a', 'x3', 4);
    expect(received[0]).toBeUndefined();
    expect(received[1]).toBe(received[3]); // the same object for a, each time
    expect(received[3]).toEqual({ n: 3, seen: ['x1', 'x2', 'x3'] });
    expect(counted.deserializations).toBe(0);
    await store.flush();
    expect(context.take().map((r) => `${r.key}=${JSON.stringify(r.value.newValue)}`)).toEqual([
      'a={"n":3,"seen":["x1","x2","x3"]}',
      'b={"n":1,"seen":["y1"]}',
    ]);
  });

  it('forwards the old value as it was written, though the aggregator mutated it since', async () => {
    const { process, store, context } = await tally(true);
    process('a', 'x1', 1);
    await store.flush();
    process('a', 'x2', 2);
    await store.flush();
    expect(
      context
        .take()
        .map((r) => `${JSON.stringify(r.value.oldValue)}->${JSON.stringify(r.value.newValue)}`),
    ).toEqual(['null->{"n":1,"seen":["x1"]}', '{"n":1,"seen":["x1"]}->{"n":2,"seen":["x1","x2"]}']);
  });

  it('after a failed update, folds the next record into the stored aggregate', async () => {
    const { process, store } = await tally(false);
    process('a', 'x1', 1);
    expect(() => process('a', 'boom', 2)).toThrow('aggregator failed after mutating');
    process('a', 'x2', 3);
    expect(store.get('a')?.value).toEqual({ n: 2, seen: ['x1', 'x2'] });
  });

  it('answers plain reads and queries with their own objects', async () => {
    const { process, store } = await tally(false);
    process('a', 'x1', 1);
    const read = store.get('a')?.value;
    const queried = store.queryGet('a')?.value;
    process('a', 'x2', 2);
    expect(read).toEqual({ n: 1, seen: ['x1'] });
    expect(queried).toEqual({ n: 1, seen: ['x1'] });
    expect(store.get('a')?.value).toEqual({ n: 2, seen: ['x1', 'x2'] });
  });
});

import { SyncReadUnavailableError } from '../../errors/sync-read-unavailable.error';
import { Record } from '../../processor/record';
import { Serdes } from '../../serde/serdes';
import type { Change } from './change';
import { KStreamAggregateProcessor } from './kstream-aggregate.processor';
import {
  asyncOnlyTimestampedStore,
  FakeProcessorContext,
} from '../../../test-support/processor-test-support';

/** A count processor over a timestamped store whose engine only reads asynchronously. */
async function asyncOnlyCount(caching: boolean) {
  const { store, engine, storeContext } = await asyncOnlyTimestampedStore(
    'counts',
    Serdes.String(),
    Serdes.Long(),
    caching,
  );
  const context = new FakeProcessorContext<string, Change<number>>();
  context.stores.set('counts', store);
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
    const { store, storeContext } = await asyncOnlyTimestampedStore(
      'counts',
      Serdes.String(),
      Serdes.Long(),
      true,
    );
    const context = new FakeProcessorContext<string, Change<number>>();
    context.children = false;
    context.stores.set('counts', store);
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

import { Record } from '../../processor/record';
import { Serdes } from '../../serde/serdes';
import type { Change } from './change';
import {
  asyncOnlyTimestampedStore,
  FakeProcessorContext,
} from '../../../test-support/processor-test-support';
import { KTableSourceProcessor, KTableSourceSupplier } from './ktable-source.processor';

const str = Serdes.String();

describe('KTableSourceProcessor', () => {
  it('has no prefetch without old values, so prefetching looks through it', () => {
    const supplier = new KTableSourceSupplier<string, string>('t');
    expect(supplier.processorSupplier()().prefetch).toBeUndefined();
    supplier.enableSendingOldValues(true);
    expect(supplier.processorSupplier()().prefetch).toBeInstanceOf(Function);
  });

  it('with old values, prefetches the batch and emits (new, old) changes', async () => {
    const { store, engine } = await asyncOnlyTimestampedStore('t', str, str, false);
    const context = FakeProcessorContext.withStores<string, Change<string>>({ t: store });
    const processor = new KTableSourceProcessor<string, string>('t', true);
    processor.init(context);
    const batch = [
      new Record('k', 'a', 1),
      new Record('k', 'b', 2),
      new Record<string, string>('k', null as unknown as string, 3),
    ];
    await processor.prefetch!(batch);
    expect(engine.getManyAsyncCalls).toBe(1);
    for (const record of batch) processor.process(record);
    expect(context.take()).toEqual([
      { key: 'k', value: { newValue: 'a', oldValue: null }, timestamp: 1 },
      { key: 'k', value: { newValue: 'b', oldValue: 'a' }, timestamp: 2 },
      { key: 'k', value: { newValue: null, oldValue: 'b' }, timestamp: 3 },
    ]);
  });
});

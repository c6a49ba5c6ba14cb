import { Record } from '../../processor/record';
import { Serdes } from '../../serde/serdes';
import { KStreamKTableJoinProcessor } from './kstream-ktable-join.processor';
import {
  asyncOnlyTimestampedStore,
  FakeProcessorContext,
} from '../../../test-support/processor-test-support';
import { storeGetterSupplier } from './timestamped-store-getter';

describe('KStreamKTableJoinProcessor', () => {
  it('prefetches the rows of a batch in one multi-get, then joins synchronously', async () => {
    const { store, engine } = await asyncOnlyTimestampedStore(
      'users',
      Serdes.String(),
      Serdes.String(),
      false,
    );
    store.put('u1', { value: 'alice', timestamp: 1 });
    const context = new FakeProcessorContext<string, string>();
    context.stores.set('users', store);
    const join = new KStreamKTableJoinProcessor<string, string, string, string>(
      storeGetterSupplier('users'),
      (click, user) => `${click}@${user ?? '?'}`,
      true,
    );
    join.init(context);
    const batch = [new Record('u1', 'c1', 5), new Record('u2', 'c2', 6), new Record('u1', 'c3', 7)];
    await join.prefetch(batch);
    expect(engine.getManyAsyncCalls).toBe(1);
    for (const record of batch) join.process(record);
    expect(context.take()).toEqual([
      { key: 'u1', value: 'c1@alice', timestamp: 5 },
      { key: 'u2', value: 'c2@?', timestamp: 6 },
      { key: 'u1', value: 'c3@alice', timestamp: 7 },
    ]);
  });
});

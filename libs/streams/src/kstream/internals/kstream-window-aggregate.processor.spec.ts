import { Record } from '../../processor/record';
import { TimeWindows } from '../windows/time-windows';
import type { Windowed } from '../../windowing/windowed';
import type { Change } from './change';
import { KStreamWindowAggregateProcessor } from './kstream-window-aggregate.processor';
import {
  FakeProcessorContext,
  FakeWindowStore,
} from '../../../test-support/processor-test-support';

function counting(windows: TimeWindows): {
  processor: KStreamWindowAggregateProcessor<string, string, number>;
  context: FakeProcessorContext<Windowed<string>, Change<number>>;
  store: FakeWindowStore<string, number>;
  pipe: (key: string | null, timestamp: number) => void;
  out: () => string[];
} {
  const context = new FakeProcessorContext<Windowed<string>, Change<number>>();
  const store = new FakeWindowStore<string, number>();
  context.stores.set('w', store);
  const processor = new KStreamWindowAggregateProcessor<string, string, number>(
    'w',
    windows,
    (_k, _v, count) => (count ?? 0) + 1,
    false,
  );
  processor.init(context);
  return {
    processor,
    context,
    store,
    pipe: (key, timestamp) => {
      context.streamTime = Math.max(context.streamTime, timestamp);
      processor.process(new Record(key as string, 'v', timestamp));
    },
    out: () =>
      context
        .take()
        .map((r) => `${r.key.toString()}=${r.value.newValue}/${r.value.oldValue}@${r.timestamp}`),
  };
}

describe('KStreamWindowAggregateProcessor', () => {
  it('counts per tumbling window and drops records after window end + grace', () => {
    const { processor, pipe, out, store } = counting(TimeWindows.ofSizeAndGrace(10, 5));
    pipe('a', 1);
    pipe('a', 12);
    pipe('a', 3);
    pipe('a', 20);
    pipe('a', 4);
    pipe(null, 21);
    expect(out()).toEqual([
      '[a@0/10]=1/null@1',
      '[a@10/20]=1/null@12',
      '[a@0/10]=2/null@3',
      '[a@20/30]=1/null@20',
    ]);
    expect(processor.dropped.total('late')).toBe(1);
    expect(processor.dropped.total('null-key')).toBe(1);
    expect(store.fetch('a', 0)).toEqual({ value: 2, timestamp: 3 });
  });

  it('accepts a record until stream time reaches exactly window end + grace', () => {
    const { processor, pipe, out } = counting(TimeWindows.ofSizeAndGrace(10, 5));
    pipe('a', 14);
    pipe('a', 9);
    pipe('a', 15);
    pipe('b', 9);
    expect(out()).toEqual(['[a@10/20]=1/null@14', '[a@0/10]=1/null@9', '[a@10/20]=2/null@15']);
    expect(processor.dropped.total('late')).toBe(1);
  });

  it('updates every hopping window of a record and prefetches all of them', async () => {
    const { processor, pipe, out, store } = counting(
      TimeWindows.ofSizeWithNoGrace(10).advanceBy(5),
    );
    await processor.prefetch([new Record('a', 'v', 7), new Record('b', 'v', 12)]);
    expect(store.prefetched).toEqual([
      [
        { key: 'a', windowStart: 0 },
        { key: 'a', windowStart: 5 },
        { key: 'b', windowStart: 5 },
        { key: 'b', windowStart: 10 },
      ],
    ]);
    pipe('a', 7);
    pipe('b', 12);
    expect(out()).toEqual([
      '[a@0/10]=1/null@7',
      '[a@5/15]=1/null@7',
      '[b@5/15]=1/null@12',
      '[b@10/20]=1/null@12',
    ]);
  });
});

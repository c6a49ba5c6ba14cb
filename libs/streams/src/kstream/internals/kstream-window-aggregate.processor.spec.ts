import { Record } from '../../processor/record';
import { Serdes } from '../../serde/serdes';
import { Stores } from '../../state/stores';
import { testStoreContext } from '../../../test-support/store-test-support';
import { TimeWindows } from '../windows/time-windows';
import type { Windowed } from '../../windowing/windowed';
import type { Change } from './change';
import { KStreamWindowAggregateProcessor } from './kstream-window-aggregate.processor';
import {
  countingDeserializations,
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
  const store = new FakeWindowStore<string, number>();
  const context = FakeProcessorContext.withStores<Windowed<string>, Change<number>>({ w: store });
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

describe('KStreamWindowAggregateProcessor with the record cache keeping aggregates', () => {
  interface Tally {
    n: number;
  }
  async function tally() {
    const { serde, counted } = countingDeserializations(Serdes.Json<Tally>());
    const store = Stores.timestampedWindowStoreBuilder(
      Stores.inMemoryWindowStore('w', 1_000, 10),
      Serdes.String(),
      serde,
    )
      .withCachingEnabled()
      .build();
    const storeContext = testStoreContext();
    await store.init(storeContext);
    const context = FakeProcessorContext.withStores<Windowed<string>, Change<Tally>>({ w: store });
    const received: (Tally | undefined)[] = [];
    const processor = new KStreamWindowAggregateProcessor<string, string, Tally>(
      'w',
      TimeWindows.ofSizeAndGrace(10, 100),
      (_k, value, aggregate) => {
        received.push(aggregate);
        const t = aggregate ?? { n: 0 };
        t.n++; // in place
        if (value === 'boom') throw new Error('aggregator failed after mutating');
        return t;
      },
      false,
    );
    processor.init(context);
    const pipe = (key: string, value: string, timestamp: number) => {
      context.streamTime = Math.max(context.streamTime, timestamp);
      storeContext.timestamp = timestamp;
      processor.process(new Record(key, value, timestamp));
    };
    return { store, context, received, counted, pipe };
  }

  it("hands the aggregator its window's object from the last update, deserializing nothing", async () => {
    const { store, context, received, counted, pipe } = await tally();
    pipe('a', 'x', 1);
    pipe('a', 'x', 2);
    pipe('a', 'x', 12); // the next window
    pipe('a', 'x', 3);
    expect(received[0]).toBeUndefined();
    expect(received[1]).toBeDefined();
    expect(received[3]).toBe(received[1]);
    expect(received[2]).toBeUndefined();
    expect(counted.deserializations).toBe(0);
    await store.flush();
    expect(
      context.take().map((r) => `${r.key.toString()}=${JSON.stringify(r.value.newValue)}`),
    ).toEqual(['[a@0/10]={"n":3}', '[a@10/20]={"n":1}']);
  });

  it('after a failed update, folds the next record into the stored aggregate', async () => {
    const { store, pipe } = await tally();
    pipe('a', 'x', 1);
    expect(() => pipe('a', 'boom', 2)).toThrow('aggregator failed after mutating');
    pipe('a', 'x', 3);
    expect(store.fetch('a', 0)?.value).toEqual({ n: 2 });
  });
});

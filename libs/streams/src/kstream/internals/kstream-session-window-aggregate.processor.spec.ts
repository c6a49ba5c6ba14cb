import { Record } from '../../processor/record';
import { SessionWindows } from '../windows/session-windows';
import type { Windowed } from '../../windowing/windowed';
import type { Change } from './change';
import { KStreamSessionWindowAggregateProcessor } from './kstream-session-window-aggregate.processor';
import {
  FakeProcessorContext,
  FakeSessionStore,
} from '../../../test-support/processor-test-support';

function sessions(windows: SessionWindows, sendOldValues = false) {
  const context = new FakeProcessorContext<Windowed<string>, Change<number>>();
  const store = new FakeSessionStore<string, number>();
  context.stores.set('s', store);
  const processor = new KStreamSessionWindowAggregateProcessor<string, string, number>(
    's',
    windows,
    {
      initializer: () => 0,
      aggregator: (_k, _v, count) => count + 1,
      merger: (_k, a, b) => a + b,
    },
    sendOldValues,
  );
  processor.init(context);
  return {
    processor,
    store,
    pipe: (key: string, timestamp: number): void => {
      context.streamTime = Math.max(context.streamTime, timestamp);
      processor.process(new Record(key, 'v', timestamp));
    },
    out: (): string[] =>
      context
        .take()
        .map((r) => `${r.key.toString()}=${r.value.newValue}/${r.value.oldValue}@${r.timestamp}`),
  };
}

describe('KStreamSessionWindowAggregateProcessor', () => {
  it('merges records within the gap, deleting the merged sessions', () => {
    const { processor, store, pipe, out } = sessions(SessionWindows.ofInactivityGapWithNoGrace(10));
    pipe('a', 0);
    pipe('a', 5);
    pipe('a', 30);
    pipe('a', 12);
    pipe('a', 20);
    expect(out()).toEqual([
      '[a@0/0]=1/null@0',
      '[a@0/0]=null/null@0',
      '[a@0/5]=2/null@5',
      '[a@30/30]=1/null@30',
      '[a@30/30]=null/null@30',
      '[a@20/30]=2/null@30',
    ]);
    expect(processor.dropped.total('late')).toBe(1);
    expect(store.dump()).toEqual(['[a@0/5]=2', '[a@20/30]=2']);
  });

  it('bridges two sessions with a record in between and sends old values when asked', () => {
    const { store, pipe, out } = sessions(SessionWindows.ofInactivityGapAndGrace(10, 100), true);
    pipe('k', 0);
    pipe('k', 20);
    pipe('k', 10);
    pipe('k', 31);
    expect(out()).toEqual([
      '[k@0/0]=1/null@0',
      '[k@20/20]=1/null@20',
      '[k@0/0]=null/1@0',
      '[k@20/20]=null/1@20',
      '[k@0/20]=3/null@20',
      '[k@31/31]=1/null@31',
    ]);
    expect(store.dump()).toEqual(['[k@0/20]=3', '[k@31/31]=1']);
  });
});

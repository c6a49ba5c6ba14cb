import type { ProcessorContext } from '../../../processor/processor-context';
import { Record } from '../../../processor/record';
import type { Windowed } from '../../../windowing/windowed';
import type { SlidingWindows } from '../../windows/sliding-windows';
import type { TimeWindows } from '../../windows/time-windows';
import { change, type Change } from '../change';
import type { DslWindowRangeStore } from '../dsl-window-stores';
import { WindowCloseSchedule } from './window-close-schedule';
import type { WindowResultEmitter } from './window-result-emitter';

/** Which windows starting when are closed, per kind of window (Kafka's emit range bounds). */
export interface CloseRange {
  /** The inclusive lower bound of the window starts to emit. */
  lower(lastEmitWindowCloseTime: number): number;
  /** The inclusive upper bound of the window starts to emit. */
  upper(windowCloseTime: number): number;
  /** Whether the range may hold windows not emitted yet. */
  worthFetching(lower: number, upper: number, lastEmitWindowCloseTime: number): boolean;
}

/**
 * `EmitStrategy.onWindowClose()` for time and sliding windows (Kafka Streams'
 * `AbstractKStreamTimeWindowAggregateProcessor.maybeForwardFinalResult`): updates are not
 * forwarded; after a record, when due (see {@link WindowCloseSchedule}), the windows that
 * closed since the last emission are read from the store and emitted once each, by window
 * start, then key, at their own timestamps, with the headers of the record that closed them.
 */
export class WindowCloseEmitter<K, VA> implements WindowResultEmitter<K, VA> {
  readonly emitsUpdates = false;
  private readonly schedule: WindowCloseSchedule;
  private context!: ProcessorContext<Windowed<K>, Change<VA>>;
  private store!: DslWindowRangeStore<K, VA>;

  constructor(
    storeName: string,
    private readonly range: CloseRange,
  ) {
    this.schedule = new WindowCloseSchedule(storeName);
  }

  init(
    context: ProcessorContext<Windowed<K>, Change<VA>>,
    store: DslWindowRangeStore<K, VA>,
  ): void {
    this.context = context;
    this.store = store;
    this.schedule.init(context);
  }

  maybeEmitClosed(record: Record<K, unknown>, windowCloseTime: number): void {
    const { schedule, range } = this;
    if (!schedule.due(windowCloseTime)) return;
    const upper = range.upper(windowCloseTime);
    if (upper < 0) return;
    const last = schedule.lastEmitWindowCloseTime;
    const lower = range.lower(last);
    if (!range.worthFetching(lower, upper, last)) return;
    const store = this.store;
    const iterator = store.fetchAllInSegments
      ? store.fetchAllInSegments(lower, upper)
      : store.fetchAll(lower, upper);
    let closed;
    try {
      closed = [...iterator];
    } finally {
      iterator.close();
    }
    closed.sort((a, b) => a.key.window.start - b.key.window.start);
    for (const { key, value } of closed) {
      this.context.forward(
        new Record(key, change(value.value, null), value.timestamp, record.headers),
      );
    }
    schedule.emitted(windowCloseTime);
  }
}

/**
 * The closed time windows: starts up to `close - size` (a window is closed once its end is),
 * from just after the last emission's; not worth a fetch when no window starts between.
 */
export function timeWindowCloseRange(windows: TimeWindows): CloseRange {
  const size = windows.size();
  return {
    lower: (last) => (last === -1 ? 0 : Math.max(0, last - size) + 1),
    upper: (close) => close - size,
    worthFetching: (lower, upper, last) =>
      last === -1 || !sameStarts(windows.windowsFor(upper), windows.windowsFor(lower - 1)),
  };
}

/** The closed sliding windows: starts up to `close - difference - 1`. */
export function slidingWindowCloseRange(windows: SlidingWindows): CloseRange {
  const difference = windows.timeDifferenceMs();
  return {
    lower: (last) => (last === -1 ? 0 : Math.max(0, last - difference)),
    upper: (close) => close - difference - 1,
    worthFetching: () => true,
  };
}

function sameStarts(a: Map<number, unknown>, b: Map<number, unknown>): boolean {
  return a.size === b.size && [...a.keys()].every((start) => b.has(start));
}

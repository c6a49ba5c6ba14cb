import type { ProcessorContext } from '../../processor/processor-context';
import { Record } from '../../processor/record';
import type { ValueAndTimestamp } from '../../state/value-and-timestamp';
import type { Aggregator, Initializer, Merger } from '../functions';
import { mergeSessions } from './session-merge';
import { SessionWindow } from '../../windowing/session-window';
import type { SessionWindows } from '../windows/session-windows';
import { Windowed } from '../../windowing/windowed';
import { change, type Change } from './change';
import { DroppedRecords, distinctKeys } from './dropped-records';
import type { DslSessionStore } from './dsl-window-stores';
import { AggregateSupplier } from './aggregate-supplier';
import type { KTableValueGetter } from './ktable-value-getter';
import { TupleForwarder } from './tuple-forwarder';
import { WindowCloseSchedule } from './windowed/window-close-schedule';
import type { WindowedAggregateProcessor } from './windowed/windowed-aggregate-processor';

/** The functions of a session aggregation. */
export interface SessionAggregation<K, V, VA> {
  readonly initializer: Initializer<VA>;
  readonly aggregator: Aggregator<K, V, VA>;
  readonly merger: Merger<K, VA>;
}

/**
 * Session-windowed `count`/`reduce`/`aggregate` (Kafka Streams'
 * `KStreamSessionWindowAggregate`): a record joins every session of its key within the
 * inactivity gap (merging them, aggregates combined with the merger) or starts a new one.
 * Merged sessions are removed and emitted as deletes; the resulting session is emitted with
 * the key `Windowed(key, [start, end])` at timestamp `end`. A record whose merged session
 * ends before `stream time - gap - grace` is dropped and counted (`late`); the stream time
 * is the largest timestamp this processor saw, as in Kafka Streams.
 *
 * With `EmitStrategy.onWindowClose()` updates and merges are not forwarded: each session is
 * emitted once, when due (see `WindowCloseSchedule`) after it ended before that time, at its
 * end, by end time, then key.
 */
export class KStreamSessionWindowAggregateProcessor<K, V, VA> implements WindowedAggregateProcessor<
  K,
  V,
  VA
> {
  readonly dropped = new DroppedRecords();
  private store!: DslSessionStore<K, VA>;
  private forwarder!: TupleForwarder<Windowed<K>, VA, Windowed<K>, VA>;
  private context!: ProcessorContext<Windowed<K>, Change<VA>>;
  private readonly schedule: WindowCloseSchedule | undefined;
  /**
   * The largest timestamp this processor saw (Kafka Streams' `observedStreamTime`): records
   * with a null key, or dropped upstream, do not move it, unlike the task's stream time.
   */
  private observedStreamTime = -1;

  constructor(
    private readonly storeName: string,
    private readonly windows: SessionWindows,
    private readonly aggregation: SessionAggregation<K, V, VA>,
    private readonly sendOldValues: boolean,
    emitOnWindowClose = false,
  ) {
    if (emitOnWindowClose) this.schedule = new WindowCloseSchedule(storeName);
  }

  init(context: ProcessorContext<Windowed<K>, Change<VA>>): void {
    this.dropped.attach(context);
    this.context = context;
    this.store = context.getStateStore<DslSessionStore<K, VA>>(this.storeName);
    this.forwarder = new TupleForwarder(
      this.store,
      context,
      this.sendOldValues,
      (key, newValue, oldValue) =>
        new Record(key, change(newValue, oldValue ?? null), key.window.end),
    );
    this.schedule?.init(context);
  }

  async prefetch(records: readonly Record<K, V>[]): Promise<void> {
    await this.store.prefetch?.(distinctKeys(records));
  }

  process(record: Record<K, V>): void {
    const key = record.key;
    if (this.dropped.nullKey(key)) return;
    const gap = this.windows.inactivityGap();
    const timestamp = record.timestamp;
    this.observedStreamTime = Math.max(this.observedStreamTime, timestamp);
    const closeTime = this.observedStreamTime - gap - this.windows.gracePeriodMs();
    const found = [...this.store.findSessions(key, timestamp - gap, timestamp + gap)].map(
      (session) => ({
        session,
        window: new SessionWindow(session.key.window.start, session.key.window.end),
      }),
    );
    const merge = mergeSessions(timestamp, gap, found);
    if (merge.window.end < closeTime) {
      this.dropped.record('late');
      this.maybeEmitClosed(record, closeTime);
      return;
    }
    const { initializer, aggregator, merger } = this.aggregation;
    let aggregate = initializer();
    for (const { session } of merge.merged) aggregate = merger(key, aggregate, session.value);
    if (!merge.window.equals(new SessionWindow(timestamp, timestamp))) {
      for (const { session } of merge.merged) {
        this.store.remove(session.key);
        this.emit(session.key, null, session.value, record);
      }
    }
    aggregate = aggregator(key, record.value, aggregate);
    const sessionKey = new Windowed(key, merge.window);
    this.store.put(sessionKey, aggregate);
    this.emit(sessionKey, aggregate, null, record);
    this.maybeEmitClosed(record, closeTime);
  }

  /** Emits the sessions that ended before `closeTime - 1` since the last emission (on close). */
  private maybeEmitClosed(record: Record<K, V>, closeTime: number): void {
    const schedule = this.schedule;
    if (schedule === undefined || !schedule.due(closeTime)) return;
    const upper = closeTime - 1;
    const lower = Math.max(0, schedule.lastEmitWindowCloseTime);
    if (upper < 0 || upper < lower) return;
    // By end, then start, then key: the store's time-first order (stable sort keeps it).
    const closed = [...(this.store.findSessionsEndingIn?.(lower, upper) ?? [])].sort(
      (a, b) => a.key.window.end - b.key.window.end || a.key.window.start - b.key.window.start,
    );
    for (const { key, value } of closed) {
      this.context.forward(new Record(key, change(value, null), key.window.end, record.headers));
    }
    schedule.emitted(closeTime);
  }

  private emit(
    key: Windowed<K>,
    newValue: VA | null,
    oldValue: VA | null,
    from: Record<K, V>,
  ): void {
    if (this.schedule !== undefined) return;
    this.forwarder.maybeForward(
      new Record(key, change(newValue, oldValue), key.window.end, from.headers),
    );
  }
}

/** Reads a session table's row: the aggregate of exactly that session. */
class SessionStoreValueGetter<K, VA> implements KTableValueGetter<Windowed<K>, VA> {
  private store!: DslSessionStore<K, VA>;

  constructor(private readonly storeName: string) {}

  init(context: ProcessorContext<unknown, unknown>): void {
    this.store = context.getStateStore<DslSessionStore<K, VA>>(this.storeName);
  }

  get(key: Windowed<K>): ValueAndTimestamp<VA> | undefined {
    const { start, end } = key.window;
    for (const session of this.store.findSessions(key.key, end, start)) {
      if (session.key.window.start === start && session.key.window.end === end) {
        return { value: session.value, timestamp: end };
      }
    }
    return undefined;
  }

  async prefetch(keys: readonly Windowed<K>[]): Promise<void> {
    await this.store.prefetch?.(keys.map((k) => k.key));
  }
}

/** The KTable node of a session-windowed aggregation: its session store is the table. */
export function sessionAggregateSupplier<K, V, VA>(
  storeName: string,
  windows: SessionWindows,
  aggregation: SessionAggregation<K, V, VA>,
  emitOnWindowClose = false,
): AggregateSupplier<K, V, Windowed<K>, VA> {
  return new AggregateSupplier(
    storeName,
    (sendOldValues) =>
      new KStreamSessionWindowAggregateProcessor(
        storeName,
        windows,
        aggregation,
        sendOldValues,
        emitOnWindowClose,
      ),
    () => new SessionStoreValueGetter<K, VA>(storeName),
  );
}

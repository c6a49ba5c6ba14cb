import type { Processor } from '../../../processor/processor';
import type { ProcessorContext } from '../../../processor/processor-context';
import { Record } from '../../../processor/record';
import { InternalConfig, internalLong } from '../../../processor/internals/internal-config';
import type { KeyValueStore } from '../../../state/key-value-store';
import type { WindowStore } from '../../../state/window-store';
import { DroppedRecords } from '../dropped-records';
import type { JoinTimeTracker, JoinTimeTrackers } from './join-time-tracker';
import type { LeftOrRightValue, TimestampedKeyAndJoinSide } from './outer-join-records';

/** The outer-join store: records waiting for a partner, listed per timestamp, side and key. */
export type OuterJoinStore<K, V1, V2> = KeyValueStore<
  TimestampedKeyAndJoinSide<K>,
  readonly LeftOrRightValue<V1, V2>[]
>;

/** Joins a value of this side with one of the other side (either may be `null` when outer). */
export type SideValueJoiner<K, VThis, VOther, VOut> = (
  key: K,
  thisValue: VThis | null,
  otherValue: VOther | null,
) => VOut;

/** What one side of a stream-stream join is. */
export interface JoinSideSpec<K, VThis, VOther, VOut> {
  /** The left (this stream's) side, or the right (the other stream's) side. */
  readonly leftSide: boolean;
  /** The other side's window store. */
  readonly otherWindowStore: string;
  /** Whether this side's records without partner are emitted with `null` (left/outer). */
  readonly outer: boolean;
  /** The shared store of records waiting for a partner (left and outer joins). */
  readonly outerJoinStore: string | undefined;
  /** How far before this side's record the other side's records join it. */
  readonly joinBeforeMs: number;
  /** How far after this side's record the other side's records join it. */
  readonly joinAfterMs: number;
  /** `JoinWindows.afterMs` and `beforeMs` (how long a waiting record's window stays open). */
  readonly windowsAfterMs: number;
  readonly windowsBeforeMs: number;
  readonly graceMs: number;
  readonly joiner: SideValueJoiner<K, VThis, VOther, VOut>;
  readonly trackers: JoinTimeTrackers;
}

/**
 * One side of a stream-stream join (Kafka Streams' `KStreamKStreamJoin`, left or right side):
 * a record looks up the other side's window store for records of its key within the join
 * window and emits one result per partner at the later of the two timestamps.
 *
 * Left and outer joins do not emit a record without partner at once: it waits in the shared
 * outer-join store until stream time passes its window end plus grace, and is emitted with
 * `null` for the other side then, unless a partner arrived meanwhile (Kafka Streams' emission
 * since 3.1, no spurious results). A record that is already past that point when it arrives
 * is emitted at once. The store is scanned only when the record advances stream time, at
 * most once per emit interval of wall-clock time.
 *
 * Records with a `null` key or value are dropped (counted), except that an outer side emits a
 * `null`-key record at once with `null` for the other side.
 */
export class KStreamKStreamJoinProcessor<K, V1, V2, VThis, VOther, VOut> implements Processor<
  K,
  VThis,
  K,
  VOut
> {
  readonly dropped = new DroppedRecords();
  private context!: ProcessorContext<K, VOut>;
  private otherWindow!: WindowStore<K, VOther>;
  private outerStore: OuterJoinStore<K, V1, V2> | undefined;
  private tracker!: JoinTimeTracker;

  constructor(private readonly spec: JoinSideSpec<K, VThis, VOther, VOut>) {}

  init(context: ProcessorContext<K, VOut>): void {
    this.dropped.attach(context);
    this.context = context;
    this.otherWindow = context.getStateStore<WindowStore<K, VOther>>(this.spec.otherWindowStore);
    this.tracker = this.spec.trackers.get(context.taskId.toString());
    if (this.spec.outerJoinStore !== undefined) {
      this.outerStore = context.getStateStore<OuterJoinStore<K, V1, V2>>(this.spec.outerJoinStore);
      this.tracker.setEmitInterval(
        internalLong(
          context.appConfigs,
          InternalConfig.EMIT_INTERVAL_MS_KSTREAMS_OUTER_JOIN_SPURIOUS_RESULTS_FIX,
          1000,
        ),
      );
    }
  }

  process(record: Record<K, VThis>): void {
    const { key, value, timestamp } = record;
    const { spec, tracker } = this;
    tracker.advanceStreamTime(timestamp);
    const nullKey = key === null || key === undefined;
    const nullValue = value === null || value === undefined;
    if (spec.outer && nullKey && !nullValue) {
      this.context.forward(record.withValue(spec.joiner(key, value, null)));
      return;
    }
    if (nullKey || nullValue) {
      this.dropped.record(nullKey ? 'null-key' : 'null-value');
      return;
    }
    if (this.outerStore !== undefined && timestamp === tracker.streamTime) {
      this.emitNonJoinedOuterRecords(this.outerStore, record);
    }
    const timeFrom = Math.max(0, timestamp - spec.joinBeforeMs);
    const timeTo = Math.max(0, timestamp + spec.joinAfterMs);
    const partners = this.otherWindow.fetch(key, timeFrom, timeTo);
    let joined = false;
    try {
      for (const partner of partners) {
        joined = true;
        this.emitInnerJoin(record, partner.key, partner.value);
      }
    } finally {
      partners.close();
    }
    if (!spec.outer || joined) return;
    if (this.outerStore === undefined || timeTo < tracker.streamTime) {
      this.context.forward(record.withValue(spec.joiner(key, value, null)));
    } else {
      tracker.updatedMinTime(timestamp);
      this.putWaiting(this.outerStore, record);
    }
  }

  close(): void {
    this.spec.trackers.remove(this.context.taskId.toString());
  }

  private emitInnerJoin(
    record: Record<K, VThis>,
    otherTimestamp: number,
    otherValue: VOther,
  ): void {
    // The partner may be waiting in the outer-join store: it is joined now, never emitted alone
    // (a delete only when it waits, as Kafka's ListValueStore.putIfAbsent(key, null)).
    const store = this.outerStore;
    if (store !== undefined) {
      const waiting = { timestamp: otherTimestamp, leftSide: !this.spec.leftSide, key: record.key };
      if (store.get(waiting) !== undefined) store.put(waiting, null);
    }
    this.context.forward(
      record
        .withValue(this.spec.joiner(record.key, record.value, otherValue))
        .withTimestamp(Math.max(record.timestamp, otherTimestamp)),
    );
  }

  private putWaiting(store: OuterJoinStore<K, V1, V2>, record: Record<K, VThis>): void {
    const key = { timestamp: record.timestamp, leftSide: this.spec.leftSide, key: record.key };
    const value = (this.spec.leftSide
      ? { side: 'left', value: record.value }
      : { side: 'right', value: record.value }) as unknown as LeftOrRightValue<V1, V2>;
    store.put(key, [...(store.get(key) ?? []), value]);
  }

  /**
   * Emits, with `null` for the missing side, the waiting records whose window closed: the
   * store iterates by timestamp, so the scan stops once both sides reached a record whose
   * window is still open. Emitted entries are deleted after the scan. As Kafka Streams' scan
   * over its list-valued store, it steps record by record, not key by key: each record of a
   * key sets `minTime` and may end the scan, so the next scan runs at the same record as there.
   */
  private emitNonJoinedOuterRecords(
    store: OuterJoinStore<K, V1, V2>,
    record: Record<K, VThis>,
  ): void {
    const { spec, tracker } = this;
    if (tracker.minTime + spec.joinAfterMs + spec.graceMs >= tracker.streamTime) return;
    const now = this.context.currentSystemTimeMs();
    if (now < tracker.nextTimeToEmit) return;
    tracker.nextTimeToEmit = now;
    tracker.advanceNextTimeToEmit();
    tracker.minTime = Number.MAX_SAFE_INTEGER;
    const emitted: TimestampedKeyAndJoinSide<K>[] = [];
    const entries = store.all();
    try {
      let leftOpen = false;
      let rightOpen = false;
      scan: for (const { key: waiting, value: values } of entries) {
        for (const value of values) {
          tracker.minTime = waiting.timestamp;
          if (leftOpen && rightOpen) break scan;
          const lookBack = waiting.leftSide ? spec.windowsAfterMs : spec.windowsBeforeMs;
          if (tracker.minTime + lookBack + spec.graceMs >= tracker.streamTime) {
            if (waiting.leftSide) leftOpen = true;
            else rightOpen = true;
            continue;
          }
          this.forwardNonJoined(record, waiting, value);
          if (emitted[emitted.length - 1] !== waiting) emitted.push(waiting);
        }
      }
    } finally {
      entries.close();
    }
    for (const waiting of emitted) store.put(waiting, null);
  }

  private forwardNonJoined(
    record: Record<K, VThis>,
    waiting: TimestampedKeyAndJoinSide<K>,
    value: LeftOrRightValue<V1, V2>,
  ): void {
    const isThis = (value.side === 'left') === this.spec.leftSide;
    const thisValue = isThis ? (value.value as VThis) : null;
    const otherValue = isThis ? null : (value.value as unknown as VOther);
    this.context.forward(
      new Record(
        waiting.key,
        this.spec.joiner(waiting.key, thisValue, otherValue),
        waiting.timestamp,
        record.headers,
      ),
    );
  }
}

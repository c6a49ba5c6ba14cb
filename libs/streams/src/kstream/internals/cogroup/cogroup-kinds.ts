import type { Serde } from '../../../serde/serde';
import type { Windowed } from '../../../windowing/windowed';
import type { Aggregator, Initializer, Merger } from '../../functions';
import type { SessionWindows } from '../../windows/session-windows';
import type { SlidingWindows } from '../../windows/sliding-windows';
import { SessionWindowedSerde } from '../../windows/session-windowed.serde';
import { TimeWindowedSerde } from '../../windows/time-windowed.serde';
import { TimeWindows } from '../../windows/time-windows';
import { aggregateSupplier } from '../kstream-aggregate.processor';
import { sessionAggregateSupplier } from '../kstream-session-window-aggregate.processor';
import { windowAggregateSupplier } from '../kstream-window-aggregate.processor';
import { timestampedKeyValueStore } from '../store-materializer';
import {
  sessionStore,
  slidingWindowStore,
  timestampedWindowStore,
} from '../window-store-materializer';
import { slidingWindowAggregateSupplier } from '../windowed/sliding-window-aggregate.processor';
import { onWindowUpdateEmitter } from '../windowed/window-result-emitter';
import { foldWith, type CogroupKind } from './cogrouped-stream-aggregate-builder';

/** A cogroup aggregating per key into a timestamped key-value store. */
export function keyValueCogroup<K, VOut>(): CogroupKind<K, VOut, K> {
  return {
    store: timestampedKeyValueStore,
    tableKeySerde: (keySerde) => keySerde,
    supplier: (
      storeName: string,
      aggregator: Aggregator<K, unknown, VOut>,
      initializer: Initializer<VOut>,
    ) => aggregateSupplier<K, unknown, VOut>(storeName, foldWith(aggregator, initializer)),
  };
}

/** A cogroup aggregating per key and time or sliding window into a timestamped window store. */
export function windowedCogroup<K, VOut>(
  windows: TimeWindows | SlidingWindows,
): CogroupKind<K, VOut, Windowed<K>> {
  const time = windows instanceof TimeWindows;
  const size = time ? windows.size() : windows.timeDifferenceMs();
  return {
    store: time ? timestampedWindowStore(windows) : slidingWindowStore(windows),
    tableKeySerde: (keySerde: Serde<K> | undefined) =>
      keySerde && new TimeWindowedSerde(keySerde, size),
    supplier: (
      storeName: string,
      aggregator: Aggregator<K, unknown, VOut>,
      initializer: Initializer<VOut>,
    ) =>
      time
        ? windowAggregateSupplier<K, unknown, VOut>(
            storeName,
            windows,
            foldWith(aggregator, initializer),
          )
        : slidingWindowAggregateSupplier<K, unknown, VOut>(
            storeName,
            windows,
            foldWith(aggregator, initializer),
            () => onWindowUpdateEmitter<K, VOut>(),
          ),
    windowGraceMs: windows.gracePeriodMs(),
  };
}

/** A cogroup aggregating per key and session into a session store, merging with `merger`. */
export function sessionCogroup<K, VOut>(
  windows: SessionWindows,
  merger: Merger<K, VOut>,
): CogroupKind<K, VOut, Windowed<K>> {
  return {
    store: sessionStore(windows),
    tableKeySerde: (keySerde: Serde<K> | undefined) =>
      keySerde && new SessionWindowedSerde(keySerde),
    supplier: (
      storeName: string,
      aggregator: Aggregator<K, unknown, VOut>,
      initializer: Initializer<VOut>,
    ) =>
      sessionAggregateSupplier<K, unknown, VOut>(storeName, windows, {
        initializer,
        aggregator,
        merger,
      }),
    windowGraceMs: windows.inactivityGap() + windows.gracePeriodMs(),
  };
}

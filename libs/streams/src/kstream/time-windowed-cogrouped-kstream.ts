import type { Windowed } from '../windowing/windowed';
import type { Initializer } from './functions';
import { KTable, type StreamOfNode } from './ktable';
import type { Materialized } from './materialized';
import type { Named } from './named';
import type { SlidingWindows } from './windows/sliding-windows';
import type { TimeWindows } from './windows/time-windows';
import { windowedCogroup } from './internals/cogroup/cogroup-kinds';
import {
  cogroupedAggregate,
  type CogroupedInput,
} from './internals/cogroup/cogrouped-stream-aggregate-builder';

/**
 * Cogrouped streams windowed by time or sliding windows (Kafka Streams'
 * `TimeWindowedCogroupedKStream`), from `CogroupedKStream.windowedBy`: one aggregate per key
 * and window, folded by each stream's aggregator into one window store, returned as a table
 * keyed by `Windowed<K>`.
 *
 * Errors: `TopologyError` for a taken name or a retention below the windows' minimum.
 */
export class TimeWindowedCogroupedKStream<K, VOut> {
  /** @internal Made by `CogroupedKStream.windowedBy`. */
  constructor(
    private readonly inputs: readonly CogroupedInput<K, VOut>[],
    private readonly windows: TimeWindows | SlidingWindows,
    private readonly streamOf: StreamOfNode,
  ) {}

  /**
   * Aggregates per key and window, each window starting from `initializer()`; every stream's
   * records are folded in with its own aggregator.
   */
  aggregate(
    initializer: Initializer<VOut>,
    materialized?: Materialized<K, VOut>,
    named?: Named,
  ): KTable<Windowed<K>, VOut> {
    const kind = windowedCogroup<K, VOut>(this.windows);
    const table = cogroupedAggregate(this.inputs, kind, initializer, materialized, named);
    return new KTable(table, this.streamOf);
  }
}

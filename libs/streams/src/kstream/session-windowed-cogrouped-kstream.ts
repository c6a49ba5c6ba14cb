import type { Windowed } from '../windowing/windowed';
import type { Initializer, Merger } from './functions';
import { KTable, type StreamOfNode } from './ktable';
import type { Materialized } from './materialized';
import type { Named } from './named';
import type { SessionWindows } from './windows/session-windows';
import { sessionCogroup } from './internals/cogroup/cogroup-kinds';
import {
  cogroupedAggregate,
  type CogroupedInput,
} from './internals/cogroup/cogrouped-stream-aggregate-builder';

/**
 * Cogrouped streams windowed by sessions (Kafka Streams' `SessionWindowedCogroupedKStream`),
 * from `CogroupedKStream.windowedBy(SessionWindows)`: one aggregate per key and session,
 * folded by each stream's aggregator into one session store; when a record merges sessions
 * their aggregates are combined with the merger.
 *
 * Errors: `TopologyError` for a taken name or a retention below gap plus grace.
 */
export class SessionWindowedCogroupedKStream<K, VOut> {
  /** @internal Made by `CogroupedKStream.windowedBy`. */
  constructor(
    private readonly inputs: readonly CogroupedInput<K, VOut>[],
    private readonly windows: SessionWindows,
    private readonly streamOf: StreamOfNode,
  ) {}

  /** Aggregates per key and session from `initializer()`, merging with `merger`. */
  aggregate(
    initializer: Initializer<VOut>,
    merger: Merger<K, VOut>,
    materialized?: Materialized<K, VOut>,
    named?: Named,
  ): KTable<Windowed<K>, VOut> {
    const kind = sessionCogroup<K, VOut>(this.windows, merger);
    const table = cogroupedAggregate(this.inputs, kind, initializer, materialized, named);
    return new KTable(table, this.streamOf);
  }
}

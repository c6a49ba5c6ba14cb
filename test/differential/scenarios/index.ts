import type { DifferentialScenario } from '../harness/scenario';
import { aggregateByKeyScenario, groupByRepartitionScenario } from './aggregation.scenario';
import { globalTableJoinScenario } from './global-table.scenario';
import {
  processorPunctuationScenario,
  processValuesScenario,
  repartitionJoinScenario,
} from './processor.scenario';
import { cogroupScenario, tableGroupByScenario, toTableScenario } from './regrouping.scenario';
import { statelessScenario } from './stateless.scenario';
import {
  emitOnSessionCloseScenario,
  emitOnWindowCloseScenario,
  slidingWindowsScenario,
  streamStreamJoinScenario,
} from './stream-join.scenario';
import {
  foreignKeyJoinScenario,
  suppressScenario,
  tableOuterJoinScenario,
} from './table-operators.scenario';
import {
  streamTableJoinScenario,
  tableSourceScenario,
  tableTableJoinScenario,
} from './table.scenario';
import {
  sessionWindowsScenario,
  timeWindowsScenario,
  windowedExpiryScenario,
} from './window.scenario';

/** The scenarios the suite runs: each has a Java twin of the same name. */
export const SCENARIOS: readonly DifferentialScenario[] = [
  statelessScenario,
  aggregateByKeyScenario,
  groupByRepartitionScenario,
  timeWindowsScenario,
  sessionWindowsScenario,
  windowedExpiryScenario,
  tableSourceScenario,
  streamTableJoinScenario,
  tableTableJoinScenario,
  repartitionJoinScenario,
  processorPunctuationScenario,
  streamStreamJoinScenario,
  slidingWindowsScenario,
  emitOnWindowCloseScenario,
  suppressScenario,
  tableOuterJoinScenario,
  tableGroupByScenario,
  toTableScenario,
  cogroupScenario,
  foreignKeyJoinScenario,
  processValuesScenario,
  globalTableJoinScenario,
];

/** A scenario that differs from Kafka Streams, why, and seeds on which it does. */
export interface AwaitingFix {
  readonly scenario: DifferentialScenario;
  readonly reason: string;
  /** Seeds whose cases differ now: the suite fails once none of them does (then move it). */
  readonly seeds: readonly number[];
}

/**
 * Scenarios that differ from Kafka Streams for a reason found and not fixed yet. `npm test`
 * runs each on its seeds and fails when it no longer differs there (move it to
 * {@link SCENARIOS} then); `--scenario NAME` runs one as a regular scenario, to see the
 * difference. A scenario equal to Java on the CI seeds but not on some others stays in
 * {@link SCENARIOS} and is listed here with the seeds that differ.
 */
export const AWAITING_FIX: readonly AwaitingFix[] = [
  {
    scenario: emitOnSessionCloseScenario,
    reason:
      "Kafka Streams' segmented stores write a session past retention while its segment is live " +
      "(getOrCreateSegmentIfLive), and its time-ordered session store's findSessions(earliestEnd, " +
      'latestEnd), which emit-on-close reads, does not filter by retention: such a session is ' +
      'emitted on close. Ours drops an entry past retention on put, so it never emits it.',
    seeds: [6, 10, 11],
  },
  {
    // Equal on seeds 1-30 but these two (it runs in SCENARIOS too, on the CI seeds).
    scenario: streamStreamJoinScenario,
    reason:
      'outerJoin: the scan emitting waiting records whose window closed runs at other records ' +
      "than Kafka Streams' (its time tracker's minTime after a scan; not found yet): seed 23 " +
      'emits a left record two results later than Java, seed 24 one more unjoined right ' +
      'record (k3 null+cat). join, leftJoin and the no-grace join are equal on both seeds.',
    seeds: [23, 24],
  },
];

import type { DifferentialScenario } from '../harness/scenario';
import { aggregateByKeyScenario, groupByRepartitionScenario } from './aggregation.scenario';
import { statelessScenario } from './stateless.scenario';
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
];

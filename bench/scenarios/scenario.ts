import type { RunContext } from '../harness/run-context';
import type { Bar } from '../harness/svg-chart';
import type { SystemRow } from '../harness/system-row';

/** Default sizes of a scenario (each overridable from the command line). */
export interface ScenarioSizes {
  readonly events: number;
  readonly keys: number;
  readonly partitions: number;
}

/** What a scenario measured. */
export interface ScenarioOutcome {
  readonly rows: readonly SystemRow[];
  /** The run's parameters (sizes, seed, settings, data facts) for the JSON. */
  readonly params: Readonly<Record<string, unknown>>;
}

/**
 * How a scenario whose figures are not events/s prints its table and draws its chart (the
 * stream scenarios use the events/s table and chart of run.ts).
 */
export interface ScenarioPresentation {
  table(rows: readonly SystemRow[]): string;
  /** The line printed under the table (what the ratios mean). */
  readonly legend: string;
  readonly chartTitle: string;
  bars(rows: readonly SystemRow[]): Bar[];
  readonly logScale?: boolean;
}

/** A benchmark scenario: `npm run bench -- <name>`. */
export interface Scenario {
  readonly name: string;
  readonly description: string;
  readonly defaults: ScenarioSizes;
  /** Table and chart of a scenario measuring latency or memory; default events/s. */
  readonly presentation?: ScenarioPresentation;
  run(ctx: RunContext): Promise<ScenarioOutcome>;
}

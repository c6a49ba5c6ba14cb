import type { RunContext } from '../harness/run-context';
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

/** A benchmark scenario: `npm run bench -- <name>`. */
export interface Scenario {
  readonly name: string;
  readonly description: string;
  readonly defaults: ScenarioSizes;
  run(ctx: RunContext): Promise<ScenarioOutcome>;
}

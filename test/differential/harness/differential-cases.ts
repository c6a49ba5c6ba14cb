import type { DifferentialCase } from './differential-case';
import { generateSteps } from './input-generator';
import type { DifferentialScenario } from './scenario';

/** The suite's size: from the environment (`npm run test:differential -- --seeds N`). */
export interface DifferentialSize {
  /** Seeds per scenario: `DIFFERENTIAL_SEEDS`, default 5 (what `npm test` runs). */
  readonly seeds: number;
  /** The first seed: `DIFFERENTIAL_FIRST_SEED`, default 1 (to replay one reported seed). */
  readonly firstSeed: number;
  /** Records per case: `DIFFERENTIAL_RECORDS`, default 200. */
  readonly records: number;
  /** Only the scenario of this name, when `DIFFERENTIAL_SCENARIO` is set. */
  readonly scenario: string | undefined;
}

/** Reads the suite's size from the environment. */
export function differentialSize(env: NodeJS.ProcessEnv = process.env): DifferentialSize {
  const positive = (name: string, fallback: number) => {
    const value = Number(env[name] ?? fallback);
    if (!Number.isInteger(value) || value < 1)
      throw new Error(`${name} must be a positive integer`);
    return value;
  };
  return {
    seeds: positive('DIFFERENTIAL_SEEDS', 5),
    firstSeed: positive('DIFFERENTIAL_FIRST_SEED', 1),
    records: positive('DIFFERENTIAL_RECORDS', 200),
    scenario: env.DIFFERENTIAL_SCENARIO || undefined,
  };
}

/** A scenario's cases: one per seed, or two (caching on and off) when it asks for both. */
export function casesOf(
  scenario: DifferentialScenario,
  size: DifferentialSize,
): DifferentialCase[] {
  const modes =
    scenario.caching === 'on' ? [true] : scenario.caching === 'off' ? [false] : [true, false];
  const cases: DifferentialCase[] = [];
  for (let seed = size.firstSeed; seed < size.firstSeed + size.seeds; seed++) {
    const steps = generateSteps(scenario.name, scenario.input, seed, size.records);
    for (const caching of modes) {
      cases.push({
        id: `${scenario.name}#${seed}/${caching ? 'cache' : 'no-cache'}`,
        scenario: scenario.name,
        seed,
        caching,
        steps,
        outputs: scenario.outputs.map((o) => o.topic),
        stores: scenario.stores,
      });
    }
  }
  return cases;
}

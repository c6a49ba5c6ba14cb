import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reliabilitySize } from './reliability-size';

const RESULTS_DIR = join(__dirname, '..', '..', '..', '.reliability-results');

/**
 * Records one scenario's figures (events, kills, answers checked, availability...): printed on
 * stdout and written to `.reliability-results/<scenario>.<size>.json`, where the README's
 * "Reliability" table is read from after a full run.
 */
export function recordFigures(scenario: string, figures: Record<string, unknown>): void {
  const size = reliabilitySize();
  const entry = { scenario, size, finishedAt: new Date().toISOString(), figures };
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(
    join(RESULTS_DIR, `${scenario}.${size}.json`),
    `${JSON.stringify(entry, null, 2)}\n`,
  );
  process.stdout.write(`[reliability] ${scenario} (${size}): ${JSON.stringify(figures)}\n`);
}

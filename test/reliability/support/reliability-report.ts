import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { streamsGroupProtocol } from '../../support/streams-client';
import { reliabilitySize } from './reliability-size';

const RESULTS_DIR = join(__dirname, '..', '..', '..', '.reliability-results');

/**
 * Records one scenario's figures (events, kills, answers checked, availability...): printed on
 * stdout and written to `.reliability-results/<scenario>.<size>.json`, where the README's
 * "Reliability" table is read from after a full run. Under the streams group protocol
 * (`NEST_STREAMS_GROUP_PROTOCOL=streams`) the scenario is named `<scenario>-streams`, so a run
 * of each protocol keeps its own file; the figures name the protocol either way.
 */
export function recordFigures(scenario: string, figures: Record<string, unknown>): void {
  const size = reliabilitySize();
  const groupProtocol = streamsGroupProtocol();
  const name = groupProtocol === 'streams' ? `${scenario}-streams` : scenario;
  const entry = {
    scenario: name,
    size,
    finishedAt: new Date().toISOString(),
    figures: { groupProtocol, ...figures },
  };
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, `${name}.${size}.json`), `${JSON.stringify(entry, null, 2)}\n`);
  process.stdout.write(`[reliability] ${name} (${size}): ${JSON.stringify(figures)}\n`);
}

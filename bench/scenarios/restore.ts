import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { selectedEngines } from '../harness/kafka-clients';
import type { SystemRow } from '../harness/system-row';
import { aggregateTruth, writeTruth } from '../harness/truth';
import { runJava } from '../systems/java';
import { runOurs } from '../systems/ours';
import type { StreamRunSpec } from '../systems/stream-run-spec';
import { STATS_STORE } from '../topologies/bench-types';
import type { Scenario } from './scenario';
import { prepareInput } from './scenario-input';
import { JAVA } from './stream-comparison';

/**
 * `restore`: each system builds its own changelog by aggregating events of distinct users
 * (1,000,000 by default: one changelog record each), then is timed from `start()` to RUNNING
 * twice: from an empty state dir (a full restore from the changelog) and from its intact state
 * dir with the checkpoint of a clean shutdown. Each time its store is checked against the truth.
 * Runs under the first guarantee of `--guarantees` (at-least-once by default). Ours runs on each
 * selected client (`ours`, `ours-kafkajs`): restoring reads the changelog through it.
 */
export const restoreScenario: Scenario = {
  name: 'restore',
  description:
    'time to RUNNING: full restore of a stats-store changelog, and restart from a checkpoint',
  defaults: { events: 1_000_000, keys: 1_000_000, partitions: 6 },
  async run(ctx) {
    const input = await prepareInput(ctx, this.defaults, { distinctKeys: true });
    const truth = aggregateTruth(input.data);
    const truthFile = join(ctx.workDir, 'truth-restore.tsv');
    await writeTruth(truth, truthFile);
    const guarantee = ctx.options.guarantees[0];
    const changelogRecords: Record<string, number> = {};
    const rows: SystemRow[] = [];
    const systems = [
      ...selectedEngines(ctx.options.systems).map(
        (e) => [e.tag, e.label, runOurs, e.client] as const,
      ),
      ...(ctx.options.systems.includes('java')
        ? [['java', JAVA, runJava, undefined] as const]
        : []),
    ];
    for (const [name, label, run, client] of systems) {
      const applicationId = `${ctx.runPrefix}-${name}`;
      const stateDir = join(ctx.workDir, `state-${name}`);
      const base: Omit<
        StreamRunSpec,
        'mode' | 'system' | 'compareKey' | 'expectedRecords' | 'dumpName'
      > = {
        inputTopic: input.topic,
        guarantee,
        applicationId,
        stateDir,
        truth,
        truthFile,
        keyColumns: 1,
        ...(client !== undefined && { client }),
      };
      const build = await run(ctx, {
        ...base,
        mode: 'aggregate',
        system: `${label}: build the changelog (aggregate ${input.data.length.toLocaleString('en-US')} users)`,
        compareKey: 'build',
        expectedRecords: input.data.length,
        dumpName: `dump-${name}-build.tsv`,
      });
      rows.push(build.row);
      if (build.row.failure) continue;
      const changelog = `${applicationId}-${STATS_STORE}-changelog`;
      const records = await ctx.topics.recordCount(changelog);
      changelogRecords[label] = records;

      rmSync(stateDir, { recursive: true, force: true });
      const empty = await run(ctx, {
        ...base,
        mode: 'restore',
        system: `${label}: restore into an empty state dir`,
        compareKey: 'restore-empty',
        expectedRecords: records,
        dumpName: `dump-${name}-restore.tsv`,
      });
      rows.push(empty.row);
      if (empty.row.failure) continue;
      const restart = await run(ctx, {
        ...base,
        mode: 'restore',
        system: `${label}: restart with intact state dir + checkpoint`,
        compareKey: 'restore-checkpoint',
        expectedRecords: undefined,
        dumpName: `dump-${name}-restart.tsv`,
      });
      rows.push(restart.row);
      rmSync(stateDir, { recursive: true, force: true });
    }
    return { rows, params: { ...input.params, guarantee, changelogRecords } };
  },
};

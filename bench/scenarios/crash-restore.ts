import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { NEST_STREAMS, selectedEngines, variantLabel } from '../harness/kafka-clients';
import type { SystemRow } from '../harness/system-row';
import { aggregateTruth, writeTruth } from '../harness/truth';
import { runJava } from '../systems/java';
import { runOurs } from '../systems/ours';
import { STATS_STORE } from '../topologies/bench-types';
import type { Scenario } from './scenario';
import { prepareInput } from './scenario-input';
import { JAVA } from './stream-comparison';

/** Share of the input committed when the processor is killed. */
const KILL_AT = 0.6;
/** How long the harness waits for the killed member's session to expire (not timed). */
const GROUP_EMPTY_TIMEOUT_MS = 120_000;

/**
 * `crash-restore`: each system aggregates events of distinct users (1,000,000 by default: one
 * changelog record each) and is SIGKILLed once 60% of the input is committed, in the middle of
 * processing. Once the group is empty again (the dead member's session expired), it restarts
 * on the same state dir and is timed from `start()` to RUNNING, with the records it restored;
 * then it processes the rest and its store is checked against the truth (exactly under
 * exactly-once; at-least-once may count the events it reprocesses twice). Kafka Streams 4.4
 * wipes a task's state after an unclean stop under exactly-once and restores it in full. Ours
 * runs on each selected client (`ours`, `ours-kafkajs`).
 */
export const crashRestoreScenario: Scenario = {
  name: 'crash-restore',
  description: 'time to RUNNING and records restored after SIGKILL during processing',
  defaults: { events: 1_000_000, keys: 1_000_000, partitions: 6 },
  async run(ctx) {
    const input = await prepareInput(ctx, this.defaults, { distinctKeys: true });
    const truth = aggregateTruth(input.data);
    const truthFile = join(ctx.workDir, 'truth-crash-restore.tsv');
    await writeTruth(truth, truthFile);
    if (ctx.options.systems.includes('java')) ctx.javaPeer();
    const systems = [
      ...selectedEngines(ctx.options.systems).map(
        (e) => [e.tag, 'ours', runOurs, e.client] as const,
      ),
      ...(ctx.options.systems.includes('java')
        ? [['java', 'java', runJava, undefined] as const]
        : []),
    ];
    const rows: SystemRow[] = [];
    const killedAt: Record<string, number> = {};
    for (const guarantee of ctx.options.guarantees) {
      const short = guarantee === 'exactly_once_v2' ? 'eos' : 'alos';
      for (const [name, role, run, client] of systems) {
        const applicationId = `${ctx.runPrefix}-${name}-${short}`;
        const stateDir = join(ctx.workDir, `state-${name}-${short}`);
        const label = variantLabel(role === 'java' ? JAVA : NEST_STREAMS, guarantee, client);
        const system = `${label}: restart after SIGKILL`;
        const base = {
          mode: 'aggregate' as const,
          inputTopic: input.topic,
          guarantee,
          applicationId,
          stateDir,
          truth,
          truthFile,
          keyColumns: 1 as const,
          compareKey: guarantee,
          expectedRecords: input.data.length,
          ...(client !== undefined && { client }),
        };
        const committed = (): Promise<number> =>
          ctx.topics.committedRecords(applicationId, input.topic).catch(() => 0);
        const crash = await run(ctx, {
          ...base,
          system: `${label}: process until SIGKILL`,
          dumpName: `dump-${name}-${short}-crash.tsv`,
          killWhen: async () => (await committed()) >= KILL_AT * input.data.length,
        });
        if (!crash.killed) {
          rows.push({
            system,
            role,
            compareKey: guarantee,
            ...(client !== undefined && { client }),
            failure: `not killed: ${crash.row.failure ?? 'the whole input was processed first'}`,
          });
          continue;
        }
        killedAt[system] = await committed();
        ctx.log(`killed with ${killedAt[system].toLocaleString('en-US')} records committed`);
        if (!(await ctx.topics.waitForEmptyGroup(applicationId, GROUP_EMPTY_TIMEOUT_MS))) {
          ctx.log(`the group of ${applicationId} still has members: restarting anyway`);
        }
        const changelog = await ctx.topics.recordCount(`${applicationId}-${STATS_STORE}-changelog`);
        const restart = await run(ctx, {
          ...base,
          system,
          dumpName: `dump-${name}-${short}-restart.tsv`,
          check: guarantee === 'at_least_once' ? 'at-least' : 'exact',
        });
        rmSync(stateDir, { recursive: true, force: true });
        const runningSeconds = Number(restart.parsed?.details.runningSeconds);
        const restored = Number(restart.parsed?.details.restoredAtRunning);
        if (restart.row.failure || !(runningSeconds > 0) || !Number.isFinite(restored)) {
          const missing =
            runningSeconds > 0 ? 'no count of restored records' : 'no time to RUNNING';
          rows.push({ ...restart.row, failure: restart.row.failure ?? missing });
          continue;
        }
        rows.push({
          ...restart.row,
          result: {
            system,
            seconds: Math.round(runningSeconds * 1000) / 1000,
            ...(restart.row.result?.peakRssMb !== undefined && {
              peakRssMb: restart.row.result.peakRssMb,
            }),
          },
          note:
            `${restored.toLocaleString('en-US')} records restored ` +
            `(changelog: ${changelog.toLocaleString('en-US')} offsets at the kill); then ` +
            `the rest processed in ${restart.row.result?.seconds?.toFixed(1) ?? '?'} s, store checked`,
        });
      }
    }
    return {
      rows,
      params: {
        ...input.params,
        killAt: `SIGKILL once ${KILL_AT * 100}% of the input is committed`,
        committedAtKill: killedAt,
        timed: 'start() to RUNNING of the restarted process (after the dead member left the group)',
        check:
          'after RUNNING the rest of the input is processed; exactly_once_v2 must match the truth exactly, at_least_once may count reprocessed events twice',
      },
    };
  },
};

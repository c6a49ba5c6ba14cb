import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { KafkaClientName } from '@nest-streams/streams';
import {
  engineOn,
  NEST_STREAMS,
  selectedEngines,
  variantLabel,
  type OurEngine,
} from '../harness/kafka-clients';
import type { SystemName } from '../harness/bench-options';
import type { RunContext } from '../harness/run-context';
import type { SystemRow } from '../harness/system-row';
import { writeTruth, type Truth } from '../harness/truth';
import { runJava } from '../systems/java';
import { runConsumeCeiling, runPipeCeiling } from '../systems/client-ceilings';
import { NODEFLUENT, runNodefluent } from '../systems/nodefluent';
import { runOurs } from '../systems/ours';
import { runRocksdbCeiling } from '../systems/rocksdb-ceiling';
import { STATS_STORE, WINDOWED_STORE } from '../topologies/bench-types';
import type { ScenarioInput } from './scenario-input';

/** Label of the Java stream processor (ours: {@link NEST_STREAMS} and its client). */
export const JAVA = 'kafka-streams-java';

/** One stream processor of the comparison: ours on a client, the baseline, or Java. */
interface Runner {
  /** In application ids, state dirs and dump files: `ours`, `ours-kafkajs`, `before`, `java`. */
  readonly name: string;
  readonly run: typeof runOurs;
  /** The row label before the guarantee: `nest-streams`, `kafka-streams-java`. */
  readonly label: string;
  /** Ours and the baseline: the engine's client, also in the row label. */
  readonly client?: KafkaClientName;
  readonly baselineRoot?: string;
  /** Ours and the baseline: processes of the application (`--instances`). */
  readonly instances?: number;
}

/**
 * Measures every selected system on the same input, checking each one's final state: each
 * client's ceilings first (kafkajs, then @platformatic/kafka), then, for each guarantee, ours on
 * each client (with the `--baseline` checkout beside ours on its client) and the Java peer side
 * by side, then the RocksDB ceiling and the nodefluent peer.
 */
export async function runStreamComparison(
  ctx: RunContext,
  input: ScenarioInput,
  spec: { mode: 'aggregate' | 'windowed'; truth: Truth; keyColumns: 1 | 2 },
): Promise<{ rows: SystemRow[]; changelogRecords: Record<string, number> }> {
  const { systems, guarantees } = ctx.options;
  const truthFile = join(ctx.workDir, `truth-${spec.mode}.tsv`);
  await writeTruth(spec.truth, truthFile);
  if (systems.includes('java')) ctx.javaPeer();

  const rows: SystemRow[] = [];
  const changelogRecords: Record<string, number> = {};
  const store = spec.mode === 'windowed' ? WINDOWED_STORE : STATS_STORE;
  const ceilings: [SystemName, KafkaClientName][] = [
    ['kafkajs', 'kafkajs'],
    ['platformatic', '@platformatic/kafka'],
  ];
  for (const [system, client] of ceilings) {
    if (!systems.includes(system)) continue;
    const expected = { records: input.data.length, valueBytes: input.valueBytes };
    rows.push(await runConsumeCeiling(ctx, client, input.topic, expected));
    rows.push(
      await runPipeCeiling(ctx, client, input.topic, {
        ...expected,
        partitions: input.partitions,
      }),
    );
  }
  const selected = streamRunners(ctx);
  for (const guarantee of guarantees) {
    const short = guarantee === 'exactly_once_v2' ? 'eos' : 'alos';
    const rounds = ctx.options.repeat;
    const measured = new Map<string, SystemRow[]>();
    for (let round = 1; round <= rounds; round++) {
      // Ours and the baseline swap places every round: the first run of a pair met a colder
      // broker in single runs, by more than the difference measured.
      const order = round % 2 === 0 ? swapOursAndBefore(selected) : selected;
      for (const { name, run, label, client, baselineRoot, instances } of order) {
        const suffix = rounds > 1 ? `-r${round}` : '';
        const applicationId = `${ctx.runPrefix}-${name}-${short}${suffix}`;
        const stateDir = join(ctx.workDir, `state-${name}-${short}${suffix}`);
        const { row, parsed } = await run(ctx, {
          mode: spec.mode,
          inputTopic: input.topic,
          guarantee,
          applicationId,
          stateDir,
          truth: spec.truth,
          truthFile,
          keyColumns: spec.keyColumns,
          system: instancesLabel(variantLabel(label, guarantee, client), instances),
          compareKey: guarantee,
          expectedRecords: input.data.length,
          dumpName: `dump-${name}-${short}${suffix}.tsv`,
          ...(client !== undefined && { client }),
          ...(baselineRoot !== undefined && { baselineRoot }),
          ...(instances !== undefined && { instances }),
        });
        rmSync(stateDir, { recursive: true, force: true });
        for (let i = 1; i <= (instances ?? 1); i++) {
          rmSync(`${stateDir}-${i}`, { recursive: true, force: true });
        }
        // How many changelog records the run wrote (what the record cache saved), for the table.
        const written = await ctx.topics
          .recordCount(`${applicationId}-${store}-changelog`)
          .catch(() => undefined);
        const notes: string[] = [];
        if (written !== undefined)
          notes.push(`${written.toLocaleString('en-US')} changelog records`);
        // CPU time per event and GC share (our worker reports them): steadier than events/s
        // when other processes share the machine.
        const cpuSeconds = Number(parsed?.details.cpuSeconds);
        const gcSeconds = Number(parsed?.details.gcSeconds);
        if (cpuSeconds > 0) {
          notes.push(
            `cpu ${((cpuSeconds * 1e6) / input.data.length).toFixed(1)} µs/event` +
              (gcSeconds >= 0 ? `, GC ${((100 * gcSeconds) / cpuSeconds).toFixed(0)}%` : ''),
          );
        }
        // Commits and the share of the run they took (the thread processes nothing meanwhile).
        const commits = Number(parsed?.details.commits);
        const commitSeconds = Number(parsed?.details.commitSeconds);
        const seconds = row.result?.seconds ?? 0;
        if (commits > 0 && commitSeconds >= 0 && seconds > 0) {
          // Several instances: their commit time over their time together.
          const share = ((100 * commitSeconds) / (seconds * (instances ?? 1))).toFixed(0);
          notes.push(`${commits} commits, ${share}% of the time`);
        }
        const noted = notes.length > 0 && !row.failure ? { ...row, note: notes.join('; ') } : row;
        measured.set(name, [...(measured.get(name) ?? []), noted]);
        if (written !== undefined && rounds === 1) changelogRecords[row.system] = written;
      }
    }
    for (const { name } of selected) rows.push(medianRound(measured.get(name) ?? []));
  }
  if (systems.includes('rocksdb')) {
    const distinctKeys = new Set<string>();
    for (let i = 0; i < input.data.length; i++) distinctKeys.add(input.data.keyOf(i));
    rows.push(
      await runRocksdbCeiling(ctx, input.eventsFile, {
        records: input.data.length,
        distinctKeys: distinctKeys.size,
      }),
    );
  }
  if (systems.includes('nodefluent')) {
    if (spec.mode === 'aggregate') {
      const counts = new Map([...spec.truth].map(([user, value]) => [user, value.split('\t')[0]]));
      rows.push(await runNodefluent(ctx, input.topic, { counts, records: input.data.length }));
    } else {
      rows.push({
        system: NODEFLUENT,
        role: 'other-peer',
        compareKey: 'at_least_once',
        note: 'not measured: no tumbling windows; its window(from, to) buffers one fixed time range',
      });
    }
  }
  return { rows, changelogRecords };
}

/** A row label for `instances` processes of one application (unchanged for one). */
export function instancesLabel(label: string, instances: number | undefined): string {
  return instances === undefined || instances === 1 ? label : `${label}, ${instances} instances`;
}

/**
 * The stream processors `--systems` selected, in run order: ours on each selected client (once
 * per `--instances` count; the baseline runs as one instance), the
 * `--baseline` checkout right after ours on `--baseline-client` (not run unless that engine is
 * selected), then the Java peer.
 */
function streamRunners(ctx: RunContext): Runner[] {
  const { systems, baseline, baselineClient, instances } = ctx.options;
  const engine = (e: OurEngine, count: number): Runner => ({
    name: count === 1 ? e.tag : `${e.tag}-x${count}`,
    run: runOurs,
    label: NEST_STREAMS,
    client: e.client,
    ...(count > 1 && { instances: count }),
  });
  const runners = selectedEngines(systems).flatMap((e) => instances.map((n) => engine(e, n)));
  if (baseline !== undefined) {
    const partner = runners.findIndex((r) => r.client === baselineClient);
    if (partner < 0) {
      ctx.log(`--baseline ignored: ${engineOn(baselineClient).system} is not in --systems`);
    } else {
      runners.splice(partner + 1, 0, {
        name: 'before',
        run: runOurs,
        label: baselineLabel(baseline),
        client: baselineClient,
        baselineRoot: baseline,
      });
    }
  }
  if (systems.includes('java')) runners.push({ name: 'java', run: runJava, label: JAVA });
  return runners;
}

/**
 * `runners` with the baseline and ours on the baseline's client in each other's place (the
 * others stay).
 */
export function swapOursAndBefore<T extends Pick<Runner, 'name' | 'client' | 'baselineRoot'>>(
  runners: readonly T[],
): T[] {
  const before = runners.findIndex((r) => r.name === 'before');
  const ours =
    before < 0
      ? -1
      : runners.findIndex(
          (r) => r.baselineRoot === undefined && r.client === runners[before].client,
        );
  const swapped = [...runners];
  if (ours >= 0 && before >= 0) [swapped[ours], swapped[before]] = [runners[before], runners[ours]];
  return swapped;
}

/**
 * One system's row over its rounds: the round of median events/s (the lower middle one for an
 * even count), noting every round's events/s in run order. A failed round fails the row: a
 * wrong answer is never hidden behind a median.
 */
export function medianRound(runs: readonly SystemRow[]): SystemRow {
  if (runs.length === 1) return runs[0];
  const failed = runs.find((r) => r.failure !== undefined || r.result?.eventsPerSec === undefined);
  if (failed !== undefined) return failed;
  const speed = (r: SystemRow): number => r.result!.eventsPerSec!;
  const sorted = [...runs].sort((a, b) => speed(a) - speed(b));
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  const each = runs.map((r) => speed(r).toLocaleString('en-US')).join(' / ');
  const note = `median of ${runs.length} rounds (${each} events/s)`;
  return { ...median, note: median.note ? `${median.note}; ${note}` : note };
}

/**
 * `nest-streams before (<commit>)`: the `--baseline` checkout's row, named by its commit (git,
 * or a `.commit` file in an exported tree such as `git archive` leaves).
 */
function baselineLabel(root: string | undefined): string {
  const dir = root ?? '.';
  let commit = 'unknown commit';
  try {
    commit = execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    if (existsSync(join(dir, '.commit')))
      commit = readFileSync(join(dir, '.commit'), 'utf8').trim();
  }
  return `${NEST_STREAMS} before (${commit})`;
}

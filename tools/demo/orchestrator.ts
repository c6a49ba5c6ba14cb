/**
 * The demo, phase by phase: broker, build, topic, two instances, events with live queries
 * through both, one instance stopped and the rebalance shown as callers see it, then every
 * user's final answer checked against the generator's truth. Everything it starts it stops.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Kafka, logLevel, type Admin } from 'kafkajs';
import {
  allUserIds,
  EventGenerator,
  type GeneratorSummary,
  type TruthReport,
} from '../../apps/event-generator/src/main';
import { AppInstance, describeExit, type AppCommand, type ClusterSettings } from './app-instance';
import type { DemoOptions } from './demo-options';
import {
  acquireBroker,
  choosePorts,
  cleanupKafka,
  ensureAppBuilt,
  killLocalBrokerNow,
  prepareInputTopic,
  releaseBroker,
  type BrokerHandle,
  type InputTopic,
} from './environment';
import {
  queryStats,
  sleep,
  StoppedError,
  waitUntil,
  WaitTimeoutError,
  type StatsAnswer,
} from './http-probe';
import { LiveView, type Observation } from './live-view';
import { ProcessSupervisor } from './processes';
import {
  describeOrigin,
  formatCount,
  formatSeconds,
  formatSum,
  formatTable,
  LiveScreen,
  Palette,
  statsCells,
  type ScreenOutput,
} from './render';
import { checkAllUsers, type TruthComparison } from './truth-check';

/** How long after its first answer without 503 or staleness the survivor counts as settled. */
const SETTLED_MS = 3000;
/** Pause between two polling rounds of the live table. */
const POLL_PAUSE_MS = 400;

/**
 * What the demo owns at any moment, for a forced exit: its child processes, and the local
 * broker from the moment it decides to start it until it has stopped it.
 */
export class DemoRuntime {
  readonly supervisor = new ProcessSupervisor();
  brokerOwned = false;

  /** SIGKILL to everything the demo owns, synchronously. */
  killEverythingNow(): void {
    this.supervisor.killAllNow();
    if (this.brokerOwned) killLocalBrokerNow();
  }
}

/** Everything a run needs. */
export interface DemoConfig {
  readonly options: DemoOptions;
  readonly repoRoot: string;
  /** The application to run. */
  readonly app: AppCommand;
  /** A file `npm run build` produces; built when missing. Undefined: no build step. */
  readonly buildOutput?: string;
  readonly out: ScreenOutput;
  readonly color: boolean;
  readonly runtime: DemoRuntime;
  /** Environment (KAFKA_BROKERS); default process.env. */
  readonly env?: NodeJS.ProcessEnv;
  /** HTTP ports wanted for A and B when free; default 8080 and 8081. */
  readonly preferredPorts?: readonly number[];
}

/** How a run ended. */
export interface DemoOutcome {
  /** 0: every final answer matched the truth; 1: not, or a failure; 130: stopped by a signal. */
  readonly code: number;
  readonly comparison?: TruthComparison;
  readonly truth?: TruthReport;
}

/** A sortable, topic-safe timestamp: `20261130-104233`. */
export function runStamp(date = new Date()): string {
  const iso = date.toISOString();
  return `${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}`;
}

/** Runs the demo until it is done (or `signal` stops it) and everything it started is stopped. */
export async function runDemo(config: DemoConfig, signal: AbortSignal): Promise<DemoOutcome> {
  const { options: o, runtime } = config;
  const p = new Palette(config.color);
  const screen = new LiveScreen(config.out, {
    live: config.out.isTTY === true,
    plainEveryMs: 5000,
  });
  const started = Date.now();
  const log = (line: string): void =>
    screen.log(`${p.dim(`[demo ${formatSeconds(Date.now() - started).padStart(7)}]`)} ${line}`);
  const stamp = runStamp();
  const applicationId = `labs-streams-demo-${stamp}`;
  const runDir = join(config.repoRoot, '.state', 'demo', applicationId);

  let broker: BrokerHandle | undefined;
  let admin: Admin | undefined;
  let input: InputTopic | undefined;
  let outcome: DemoOutcome = { code: 1 };
  const instances: AppInstance[] = [];
  try {
    broker = await acquireBroker(log, () => (runtime.brokerOwned = true), config.env);
    runtime.brokerOwned = broker.source === 'started';
    if (signal.aborted) throw new StoppedError();
    if (config.buildOutput) {
      await ensureAppBuilt(config.buildOutput, config.repoRoot, log, signal);
    }

    const kafka = new Kafka({
      clientId: `${applicationId}-admin`,
      brokers: broker.brokers.split(','),
      logLevel: logLevel.NOTHING,
    });
    admin = kafka.admin();
    await admin.connect();
    input = await prepareInputTopic(admin, o.topic, o.partitions, stamp, log);
    if (signal.aborted) throw new StoppedError();

    const httpPorts = await choosePorts(2, config.preferredPorts ?? [8080, 8081]);
    const queryPorts = await choosePorts(2, [], httpPorts);
    const cluster: ClusterSettings = {
      brokers: broker.brokers,
      applicationId,
      inputTopic: input.topic,
      standbyReplicas: 1,
    };
    for (const [i, label] of ['A', 'B'].entries()) {
      instances.push(
        AppInstance.start(
          runtime.supervisor,
          config.app,
          cluster,
          {
            label,
            port: httpPorts[i],
            queryPort: queryPorts[i],
            stateDir: join(runDir, label.toLowerCase()),
            logFile: join(runDir, `${label.toLowerCase()}.log`),
          },
          config.repoRoot,
        ),
      );
    }
    const [a, b] = instances;
    log(
      `starting two instances of order-stats: ${a.label} on ${a.endpoint}, ${b.label} on ${b.endpoint}` +
        ` (APPLICATION_ID=${applicationId}, NUM_STANDBY_REPLICAS=1, INPUT_TOPIC=${input.topic})`,
    );
    log(`their state and logs: ${runDir}`);
    const readyStop = new AbortController();
    const readySignal = AbortSignal.any([signal, readyStop.signal]);
    try {
      await Promise.all(instances.map((i) => i.waitReady(o.readyTimeoutS * 1000, readySignal)));
    } finally {
      readyStop.abort();
    }
    log(
      `both instances ready (GET /health/ready: 200) after ${formatSeconds(Date.now() - started)}`,
    );

    const { comparison, truth } = await runScenario({
      options: o,
      a,
      b,
      brokers: broker.brokers,
      input,
      applicationId,
      palette: p,
      screen,
      log,
      clock: () => Date.now() - started,
      signal,
    });
    outcome = { code: comparison.ok ? 0 : 1, comparison, truth };

    if (!o.unattended && !signal.aborted) {
      const base = `http://${a.endpoint}`;
      const last = allUserIds(Math.min(o.users, 5)).at(-1)!;
      for (const line of [
        `${a.label} keeps serving. Try, in another terminal:`,
        `  curl -i ${base}/stats/user-001`,
        `  curl -s '${base}/stats/range?from=user-001&to=${last}'`,
        `  curl -s ${base}/streams/metadata`,
        `Ctrl-C stops ${a.label}${broker.source === 'started' ? ' and the broker' : ''} and cleans up.`,
      ]) {
        log(line);
      }
      await new Promise<void>((resolve) => {
        if (signal.aborted) return resolve();
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
    }
  } catch (error) {
    screen.finish();
    if (signal.aborted || error instanceof StoppedError) {
      log('stopped.');
      outcome = { ...outcome, code: outcome.comparison ? outcome.code : 130 };
    } else {
      log(p.red(`demo failed: ${error instanceof Error ? error.message : String(error)}`));
      for (const instance of instances) {
        const tail = instance.process.tail(15);
        if (tail) log(`last lines of ${instance.label} (${instance.settings.logFile}):\n${tail}`);
      }
      outcome = { ...outcome, code: 1 };
    }
  } finally {
    screen.finish();
    const running = runtime.supervisor.running;
    if (running.length > 0) {
      log(`stopping instance(s) ${running.map((r) => r.name).join(', ')} (SIGTERM)...`);
      await runtime.supervisor.stopAll(15_000);
    }
    if (admin) {
      if (broker && broker.source !== 'started' && !o.keep) {
        await cleanupKafka(
          admin,
          { applicationId, createdTopic: input?.created ? input.topic : undefined },
          log,
        );
      }
      await admin.disconnect().catch(() => undefined);
    }
    if (broker) {
      await releaseBroker(broker, log).catch((error: unknown) =>
        log(p.red(`could not stop the broker: ${String(error)}`)),
      );
      runtime.brokerOwned = false;
    }
    if (!o.keep) {
      for (const instance of instances) {
        rmSync(instance.settings.stateDir, { recursive: true, force: true });
      }
      if (outcome.code === 0 || instances.length === 0)
        rmSync(runDir, { recursive: true, force: true });
      else log(`instance logs kept in ${runDir}`);
    }
  }
  return outcome;
}

/** What the live part of the demo needs. */
interface ScenarioContext {
  readonly options: DemoOptions;
  readonly a: AppInstance;
  readonly b: AppInstance;
  readonly brokers: string;
  readonly input: InputTopic;
  readonly applicationId: string;
  readonly palette: Palette;
  readonly screen: LiveScreen;
  readonly log: (line: string) => void;
  /** Milliseconds since the demo started (the clock of the log lines). */
  readonly clock: () => number;
  readonly signal: AbortSignal;
}

/**
 * Events and live queries through both instances; SIGTERM to B at 40 % of the events and the
 * rebalance as callers of both see it; after the last event, every user checked through A.
 */
async function runScenario(
  ctx: ScenarioContext,
): Promise<{ comparison: TruthComparison; truth: TruthReport }> {
  const { options: o, a, b, palette: p, screen, log, signal } = ctx;
  const instances = [a, b];
  const labels = new Map(instances.map((i) => [i.endpoint, i.label]));
  const shown = allUserIds(o.users).slice(0, o.show);
  const view = new LiveView(shown, ['A', 'B'], labels, p);

  const generator = new EventGenerator({
    brokers: ctx.brokers.split(','),
    topic: ctx.input.topic,
    partitions: ctx.input.partitions,
    users: o.users,
    seed: o.seed,
    rate: o.rate,
    // A count rather than a duration: the malformed records are then spread over the run.
    events: Math.max(1, Math.round(o.rate * o.durationS)),
    malformed: o.malformed,
    clientId: `${ctx.applicationId}-generator`,
  });
  const produced = (userId: string): number => generator.truth.totalsOf(userId)?.count ?? 0;
  const genStop = new AbortController();
  const stopGenerator = (): void => genStop.abort();
  signal.addEventListener('abort', stopGenerator, { once: true });
  log(
    `generator: ${o.rate} events/s for ${o.durationS} s, ${o.users} users, seed ${o.seed},` +
      ` ${o.malformed} malformed records mixed in → ${ctx.input.topic}`,
  );
  const genStart = Date.now();
  let generated: { summary: GeneratorSummary } | { error: unknown } | undefined;
  const generation = generator.run(genStop.signal).then(
    (summary) => (generated = { summary }),
    (error: unknown) => (generated = { error }),
  );

  let phase = 'A and B serving';
  let tallyLabel = 'since start';
  const render = (force = false): void =>
    screen.show(
      view.frame({
        title: 'nest-streams demo',
        phase,
        elapsedMs: ctx.clock(),
        generatorLine:
          `${formatCount(generator.truth.events)} events · ${generator.truth.malformed} malformed` +
          ` · ${o.rate}/s for ${o.durationS} s → ${ctx.input.topic} (${ctx.input.partitions} partitions)`,
        instanceLines: instances.map((i) => i.describe()),
        produced,
        tallyLabel,
      }),
      force,
    );

  let afterRound: () => void = () => undefined;
  let rebalancing = false;
  let polling = true;
  let lastRender = 0;
  const pollRound = async (): Promise<void> => {
    const round = await Promise.all(
      instances.flatMap((instance) =>
        shown.map(async (userId): Promise<Observation> => ({
          userId,
          via: instance.label,
          answer: await queryStats(instance.endpoint, userId),
        })),
      ),
    );
    const firsts = view.recordRound(round);
    for (const first of firsts) log(describeFirst(first, labels, p));
    afterRound();
    // Off a terminal frames are sparse: print the one that shows a new kind of answer.
    if (firsts.length > 0 && rebalancing) {
      lastRender = Date.now();
      render(true);
    }
  };
  const poller = (async (): Promise<void> => {
    while (polling && !signal.aborted) {
      try {
        await pollRound();
      } catch (error) {
        log(p.red(`polling failed: ${String(error)}`));
      }
      if (Date.now() - lastRender >= 1000) {
        lastRender = Date.now();
        render();
      }
      await sleep(POLL_PAUSE_MS, signal);
    }
  })();
  const failIfGeneratorFailed = (): void => {
    if (generated && 'error' in generated) {
      const e = generated.error;
      throw new Error(`the generator failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  };

  try {
    // Phase 1: both instances answer; each key is local on one, forwarded by the other.
    const killAtMs = Math.max(3000, Math.round(o.durationS * 400));
    await waitUntil(() => Date.now() - genStart >= killAtMs || generated !== undefined, {
      timeoutMs: killAtMs + 60_000,
      what: 'the moment to stop B',
      signal,
      intervalMs: 100,
    });
    failIfGeneratorFailed();
    render(true);

    // Phase 2: B stops; A takes its partitions over. Callers see 503s, or standby answers.
    phase = 'B stopped (SIGTERM): rebalance';
    tallyLabel = 'since SIGTERM';
    view.resetTallies();
    rebalancing = true;
    const killedAt = Date.now();
    log(
      p.bold(`SIGTERM → ${b.label} (pid ${b.process.pid}).`) +
        ` ${a.label} takes over ${b.label}'s partitions; watch what callers get meanwhile.`,
    );
    void b
      .stop(30_000)
      .then((exit) =>
        log(
          `${b.label} exited (${describeExit(exit)}) ${formatSeconds(Date.now() - killedAt)} after the SIGTERM`,
        ),
      );
    // Settled: B is gone and every shown key is A's own again (no 503, standby or forward).
    const rebalanceSymptoms = new Set(['unavailable', 'stale', 'forwarded', 'down']);
    let settledSince: number | undefined;
    afterRound = () => {
      const settled =
        !b.alive &&
        shown.every((userId) => {
          const answer = view.answer(userId, a.label);
          return answer !== undefined && !rebalanceSymptoms.has(answer.kind);
        });
      settledSince = settled ? (settledSince ?? Date.now()) : undefined;
    };
    try {
      await waitUntil(() => settledSince !== undefined && Date.now() - settledSince >= SETTLED_MS, {
        timeoutMs: 60_000,
        what: `${a.label} to answer every shown user itself`,
        signal,
        intervalMs: 100,
      });
      log(
        `rebalance over: ${a.label} answers every key itself, ${formatSeconds(settledSince! - killedAt)} after the SIGTERM.` +
          ` Callers saw, via ${a.label}: ${view.tallyLine(a.label)}; via ${b.label}: ${view.tallyLine(b.label)}`,
      );
    } catch (error) {
      if (!(error instanceof WaitTimeoutError)) throw error;
      log(p.yellow(`${a.label} did not settle: ${error.message}`));
    }
    rebalancing = false;
    render(true);
    phase = `${a.label} alone`;

    // Phase 3: the rest of the events, then every user's answer against the truth.
    await generation;
    if (signal.aborted) throw new StoppedError();
    failIfGeneratorFailed();
    const summary = (generated as { summary: GeneratorSummary }).summary;
    log(
      `generator done: ${formatCount(summary.events)} events and ${summary.malformed} malformed records` +
        ` in ${formatSeconds(summary.elapsedMs)}; asking ${a.label} for every user's totals...`,
    );
    polling = false;
    await poller;
    render(true);
    screen.finish();
    const truth = summary.truth;
    const check = await finalCheck(truth, a, o.settleTimeoutS * 1000, screen, signal);
    if (signal.aborted) throw new StoppedError();
    screen.show([]);
    screen.finish();
    for (const line of finalReport(
      truth,
      check.comparison,
      check.answers,
      shown,
      a.label,
      labels,
      p,
    )) {
      log(line);
    }
    if (view.regressions > 0) {
      log(p.red(`${view.regressions} non-stale answer(s) were lower than an earlier answer`));
    }
    return { comparison: check.comparison, truth };
  } finally {
    polling = false;
    genStop.abort();
    signal.removeEventListener('abort', stopGenerator);
    await Promise.all([poller, generation]);
  }
}

/** The line logged the first time an instance gives an answer of some kind. */
function describeFirst(o: Observation, labels: ReadonlyMap<string, string>, p: Palette): string {
  const a = o.answer;
  const where = `via ${o.via} ${o.userId}:`;
  switch (a.kind) {
    case 'local':
      return `${where} ${describeOrigin(a, labels, p)} (X-Served-By: ${a.servedBy})`;
    case 'forwarded':
      return `${where} ${describeOrigin(a, labels, p)}, its owner (X-Served-By: ${a.servedBy})`;
    case 'stale':
      return `${where} ${p.yellow(`count ${a.stats!.count} from ${a.servedBy ? `${labels.get(a.servedBy) ?? a.servedBy}'s ` : 'a '}standby copy`)} (X-Stale: true, X-Lag: ${a.lag ?? '?'})`;
    case 'unavailable':
      return `${where} ${p.yellow(`503 Service Unavailable, Retry-After: ${a.retryAfter ?? '(missing)'}`)}${a.detail ? ` (${a.detail})` : ''}`;
    default:
      return `${where} ${describeOrigin(a, labels, p)}`;
  }
}

/** The final table (every user when few, else the shown ones and any mismatch) and verdict. */
function finalReport(
  truth: TruthReport,
  comparison: TruthComparison,
  answers: ReadonlyMap<string, StatsAnswer>,
  shown: readonly string[],
  via: string,
  labels: ReadonlyMap<string, string>,
  p: Palette,
): string[] {
  const ids = allUserIds(truth.users);
  const wrong = new Set(comparison.mismatches.map((m) => m.userId));
  const listed =
    ids.length <= 30 ? ids : ids.filter((id) => shown.includes(id) || wrong.has(id)).slice(0, 40);
  const rows: string[][] = [
    [
      ...['user', 'truth: count', 'sum', `${via}: count`, 'sum', 'answered by'].map((h) =>
        p.dim(h),
      ),
      '',
    ],
  ];
  for (const userId of listed) {
    const expected = truth.totals[userId];
    const answer = answers.get(userId);
    rows.push([
      userId,
      expected ? formatCount(expected.count) : p.dim('–'),
      expected ? formatSum(expected.sum) : p.dim('–'),
      ...statsCells(answer, p),
      answer ? describeOrigin(answer, labels, p) : p.dim('no answer'),
      wrong.has(userId) ? p.red('✗') : p.green('✓'),
    ]);
  }
  const lines = [
    `final answers through ${via}, compared with the generator's truth:`,
    ...formatTable(rows, ['left', 'right', 'right', 'right', 'right', 'left', 'left']).map(
      (l) => `  ${l}`,
    ),
  ];
  if (listed.length < ids.length)
    lines.push(p.dim(`  (${ids.length - listed.length} more users checked, not listed)`));
  if (comparison.ok) {
    lines.push(
      p.green(
        `✓ all ${comparison.users} users match the generator's truth: ${formatCount(truth.events)} events,` +
          ` ${truth.malformed} malformed records skipped`,
      ),
    );
  } else {
    lines.push(
      p.red(
        `✗ ${comparison.mismatches.length} of ${comparison.users} users differ from the truth:`,
      ),
    );
    for (const m of comparison.mismatches.slice(0, 10)) {
      const expected = m.expected
        ? `count ${m.expected.count}, sum ${m.expected.sum}`
        : '404 (no event)';
      lines.push(p.red(`  ${m.userId}: expected ${expected}; got ${m.got}`));
    }
  }
  return lines;
}

/** Wrong answers that stayed the same this long, after the last event, are final. */
const STABLE_WRONG_MS = 10_000;

/**
 * Asks `a` for every user until all answers match the truth, or `timeoutMs` passes, or the
 * mismatches are settled wrong values: only 200s and 404s (no 503, no failure) that have not
 * changed for {@link STABLE_WRONG_MS}, since nothing more is coming.
 */
async function finalCheck(
  truth: TruthReport,
  a: AppInstance,
  timeoutMs: number,
  screen: LiveScreen,
  signal: AbortSignal,
): Promise<{ comparison: TruthComparison; answers: Map<string, StatsAnswer> }> {
  const deadline = Date.now() + timeoutMs;
  let check = await checkAllUsers(truth, (userId) => queryStats(a.endpoint, userId));
  let last = '';
  let sameSince = Date.now();
  let first = true;
  while (!check.comparison.ok && Date.now() < deadline && !signal.aborted) {
    const { mismatches } = check.comparison;
    const signature = JSON.stringify(mismatches);
    if (signature !== last) {
      last = signature;
      sameSince = Date.now();
    }
    const settledWrong = mismatches.every((m) => {
      const kind = check.answers.get(m.userId)?.kind;
      return (
        kind === 'local' || kind === 'forwarded' || kind === 'unmarked' || kind === 'not-found'
      );
    });
    if (settledWrong && Date.now() - sameSince >= STABLE_WRONG_MS) break;
    screen.show(
      [
        `catching up: ${check.comparison.matched}/${check.comparison.users} users match so far` +
          ` (${a.label} may still be processing); waiting up to ${formatSeconds(deadline - Date.now())} more...`,
      ],
      first,
    );
    first = false;
    await sleep(1000, signal);
    check = await checkAllUsers(truth, (userId) => queryStats(a.endpoint, userId));
  }
  return check;
}

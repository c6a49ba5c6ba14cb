/**
 * The live part of the demo: events and live queries through both instances, one instance
 * stopped and the rebalance as callers see it, then the final check through the survivor.
 */
import {
  allUserIds,
  EventGenerator,
  type GeneratorSummary,
  type TruthReport,
} from '../../apps/event-generator/src/main';
import { AppInstance, describeExit } from './app-instance';
import type { DemoOptions } from './demo-options';
import type { InputTopic } from './environment';
import { queryStats, sleep, StoppedError, waitUntil, WaitTimeoutError } from './http-probe';
import { LiveView, type Observation } from './live-view';
import { describeOrigin, formatCount, formatSeconds, LiveScreen, Palette } from './render';
import type { TruthComparison } from './truth-check';
import { finalCheck, finalReport } from './final-check';

/** How long after its first answer without 503 or staleness the survivor counts as settled. */
const SETTLED_MS = 3000;
/** Pause between two polling rounds of the live table. */
const POLL_PAUSE_MS = 400;

/** What the live part of the demo needs. */
export interface ScenarioContext {
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
export async function runScenario(
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

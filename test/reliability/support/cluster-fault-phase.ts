import { exactNow, type ExactView } from './cluster-exact-check';
import type { ClusterFaultFixture, FaultApp } from './cluster-fault-fixture';
import type { ClusterFault, NodeRoles } from './cluster-fault-injectors';
import { diagnoseStall, type StallVerdict } from './cluster-stall-diagnosis';
import type { QueryTally } from './query-checker';

/** How one fault is run. */
export interface PhaseSettings {
  /** Events produced in the phase (at the feed's rate). */
  readonly events: number;
  /** Share of them produced before the fault. */
  readonly faultAt: number;
  /** How long the answers may take to be exact once every event is produced. */
  readonly exactTimeoutMs: number;
  /** Progress lines (the fault, the end of the feed, each application exact). */
  readonly log: (line: string) => void;
}

/** What the queries got, by kind, during the phase. */
export interface AnswerKinds {
  /** 200 from the active copy. */
  readonly ok: number;
  /** 200 marked `X-Stale` (a standby). */
  readonly staleOk: number;
  /** 404 for a user without committed events. */
  readonly notFound: number;
  /** 503 with `Retry-After`, by reason. */
  readonly unavailable: number;
  readonly unavailableReasons: Record<string, number>;
  /** Answers that broke a rule, connection errors included. */
  readonly errors: number;
}

/** One application's result of a phase. */
export interface AppPhaseResult {
  readonly guarantee: string;
  /** From the fault until every answer was exact (at-least-once: complete); null if never. */
  readonly exactAfterFaultSeconds: number | null;
  /** From the last event's acknowledgement until then. */
  readonly exactAfterProducedSeconds: number | null;
  /** Still exact once the cluster was whole again (victim back, full ISR). */
  readonly exactAfterRejoin: boolean;
  readonly answers: AnswerKinds;
  /** Answers that broke a rule (the checker's failures of this phase, first 20). */
  readonly wrongAnswers: string[];
  /** The last look when not exact (in time, or after the rejoin). */
  readonly lastView?: ExactView;
  /** Who held the application back, when it did not become exact in time. */
  readonly stall?: StallVerdict;
  /** The first exit or ERROR of one of its instances, with the end of its output. */
  readonly instanceFailure?: string;
}

/** A phase's figures and problems. */
export interface PhaseResult {
  readonly victims: number[];
  readonly roles: NodeRoles[];
  readonly injectSeconds: number;
  readonly recoverSeconds: number;
  readonly produceSeconds: number;
  readonly events: number;
  /** Partitions the feed sent again because its producer resolved without them. */
  readonly feedResentPartitions: number;
  readonly apps: AppPhaseResult[];
}

/**
 * One fault on a healthy fixture: releases the feed for `events` events, injects the fault
 * once `faultAt` of them are acknowledged, holds the feed when all are, then waits until each
 * application's answers are exact (exactly-once) or complete (at-least-once) and, when they are
 * not in time, asks {@link diagnoseStall} who holds it back. Then the cluster is made whole
 * again and the answers checked once more. The query checkers run throughout.
 */
export async function runFaultPhase(
  fixture: ClusterFaultFixture,
  fault: ClusterFault,
  settings: PhaseSettings,
): Promise<PhaseResult> {
  const { feed } = fixture;
  const before = fixture.apps.map((a) => ({
    tally: structuredClone(a.checker.tally),
    failures: a.checker.failures.length,
  }));
  const first = feed.acknowledged;
  const resentBefore = feed.resentPartitions;
  const started = Date.now();
  const budget = (settings.events / feed.options.rate) * 3_000 + 120_000;
  feed.release();
  await until(
    fixture,
    () => feed.acknowledged >= first + settings.events * settings.faultAt,
    budget,
  );
  const faultAt = Date.now();
  const atEvent = feed.acknowledged;
  const outcome = await fault.inject(fixture);
  settings.log(`${fault.name}: node(s) ${outcome.victims.join(', ')} hit at event ${atEvent}`);
  await until(fixture, () => feed.acknowledged >= first + settings.events, budget);
  feed.hold();
  await until(fixture, () => feed.acknowledged === feed.dispatched, 120_000);
  const producedAt = Date.now();
  settings.log(`${fault.name}: all ${feed.acknowledged} events produced`);

  const exactAt = await Promise.all(
    fixture.apps.map((app) => waitExact(fixture, app, settings.exactTimeoutMs)),
  );
  settings.log(
    `${fault.name}: exact after ${exactAt.map((e) => (e.at === null ? 'never' : seconds(e.at - faultAt))).join(' / ')} s`,
  );
  const recoverMs = await outcome.recover();
  const rejoined = await Promise.all(fixture.apps.map((app) => waitExact(fixture, app, 60_000)));
  const apps = await Promise.all(
    fixture.apps.map(async (app, i): Promise<AppPhaseResult> => {
      const at = exactAt[i].at;
      const failure = fixture.failureOf(app);
      const stall =
        at === null && !failure
          ? await diagnoseStall(fixture, app, exactAt[i].view).catch(
              (error: unknown): StallVerdict => ({
                culprit: 'test',
                reason: `the diagnosis failed: ${String(error)}`,
                evidence: {},
              }),
            )
          : undefined;
      return {
        guarantee: app.guarantee,
        exactAfterFaultSeconds: at === null ? null : seconds(at - faultAt),
        exactAfterProducedSeconds: at === null ? null : seconds(Math.max(0, at - producedAt)),
        exactAfterRejoin: rejoined[i].at !== null,
        answers: answerKinds(before[i].tally, app.checker.tally),
        wrongAnswers: app.checker.failures.slice(before[i].failures).slice(0, 20),
        ...(at === null || rejoined[i].at === null
          ? { lastView: rejoined[i].at === null ? rejoined[i].view : exactAt[i].view }
          : {}),
        ...(stall ? { stall } : {}),
        ...(failure ? { instanceFailure: failure.message } : {}),
      };
    }),
  );
  return {
    victims: outcome.victims,
    roles: outcome.roles,
    injectSeconds: seconds(outcome.injectMs),
    recoverSeconds: seconds(recoverMs),
    produceSeconds: seconds(producedAt - started),
    events: feed.acknowledged - first,
    feedResentPartitions: feed.resentPartitions - resentBefore,
    apps,
  };
}

/** Polls {@link exactNow} until exact (the time), unhealthy or `timeoutMs` (null). */
async function waitExact(
  fixture: ClusterFaultFixture,
  app: FaultApp,
  timeoutMs: number,
): Promise<{ at: number | null; view: ExactView }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const view = await exactNow(app.cluster, fixture.feed, app.guarantee);
    if (view.exact) return { at: Date.now(), view };
    if (Date.now() > deadline || fixture.failureOf(app)) return { at: null, view };
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/**
 * Waits for `condition`; fails at once when the feed fails, and stops waiting (the phase goes on
 * to record each application's failure) once every application broke.
 */
async function until(
  fixture: ClusterFaultFixture,
  condition: () => boolean,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (fixture.apps.every((app) => fixture.failureOf(app))) return;
    fixture.assertFeeding();
    if (Date.now() > deadline) {
      const { dispatched, acknowledged } = fixture.feed;
      throw new Error(
        `the feed is stuck: ${acknowledged} of ${dispatched} dispatched events acknowledged after ${timeoutMs} ms`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

function answerKinds(before: QueryTally, after: QueryTally): AnswerKinds {
  const reasons: Record<string, number> = {};
  for (const [reason, n] of Object.entries(after.unavailableReasons)) {
    const d = n - (before.unavailableReasons[reason] ?? 0);
    if (d > 0) reasons[reason] = d;
  }
  const diff = (key: keyof QueryTally) => (after[key] as number) - (before[key] as number);
  return {
    ok: diff('activeOk') + diff('rangeOk'),
    staleOk: diff('staleOk'),
    notFound: diff('activeNotFound') + diff('staleNotFound'),
    unavailable: diff('unavailable') + diff('rangeUnavailable'),
    unavailableReasons: reasons,
    errors: diff('failures'),
  };
}

function seconds(ms: number): number {
  return Math.round(ms / 100) / 10;
}

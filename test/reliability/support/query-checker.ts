import { SeededRandom } from '../../../apps/event-generator/src/random';
import type { ChaosCommittedOffsets } from './chaos-committed-offsets';
import type { ChaosEventFeed } from './chaos-event-feed';
import type { ClusterSeat, OrderStatsCluster, SeatAnswer } from './order-stats-cluster';
import { header, isExactPrefix, judgeStats, validRetryAfter, type Guarantee } from './query-rules';
import type { ServiceRouter } from './service-router';

/** Where a request goes: one seat, or the Service in front of every seat. */
interface QueryRoute {
  readonly label: string;
  get(path: string): Promise<SeatAnswer>;
  /** Whether a connection error is expected: the target was killed during the request. */
  killedDuring(started: number, ended: number): boolean;
}

/** Counts of the answers a {@link QueryChecker} judged. */
export interface QueryTally {
  /** Single-key requests (GET /stats/:userId) that got an HTTP answer. */
  keyAnswers: number;
  /** 200 from the active owner (no `X-Stale`). */
  activeOk: number;
  /** 200 from a standby, marked `X-Stale: true`. */
  staleOk: number;
  /** Stale answers without an `X-Lag` (a failure: a standby copy always says its lag). */
  staleWithoutLag: number;
  /** 404 for a user with no committed event (active) / from a marked standby copy. */
  activeNotFound: number;
  staleNotFound: number;
  /** 503 with `Retry-After`. */
  unavailable: number;
  /** The 503s by the reason their body gives (numbers, hosts and ports as `#`). */
  unavailableReasons: Record<string, number>;
  /** Whole-cluster range requests that got an HTTP answer, and their 200s / 503s. */
  rangeAnswers: number;
  rangeOk: number;
  rangeUnavailable: number;
  /** Requests cut by the kill of the instance they went to (expected, not failures). */
  connectionErrorsKilled: number;
  /** Requests that got no HTTP answer otherwise (failures). */
  connectionErrors: number;
  /** 200s that were exactly a prefix of the user's events (every one under exactly-once). */
  exactPrefix: number;
  /** Active 200s judged against a non-zero committed lower bound (the bound is live). */
  activeAboveCommitted: number;
  /** Every answer that broke a rule (also listed in {@link QueryChecker.failures}). */
  failures: number;
}

/** How the load is made. */
export interface QueryCheckerOptions {
  readonly guarantee: Guarantee;
  readonly seed: number;
  /** Requests in flight at once. */
  readonly concurrency: number;
  /** Pause after each answer per worker, ms. */
  readonly pauseMs: number;
  /** Every n-th request is a whole-cluster range. */
  readonly rangeEvery: number;
  /**
   * Send every request through this Service instead of to a random live seat; then every
   * connection error is a failure (a Service must never send a request where it fails).
   */
  readonly via?: ServiceRouter;
}

/**
 * Queries random users through random live instances while the chaos driver kills and
 * restarts them, and checks every answer (see {@link judgeStats} for the values):
 *
 * - 200 without `X-Stale`: an active copy — never newer than what was produced (exactly-once:
 *   exactly the state after the user's first `count` events) and never older than what was
 *   committed before the request started;
 * - 200 with `X-Stale: true` and `X-Lag: <records>`: a standby — never newer, exact prefix;
 *   with `X-Lag: 0` also never older than what was committed before the request started;
 * - 404: only for a user without committed events (active), or from a standby copy that is
 *   marked and says how far behind it is (`X-Lag`); with `X-Lag: 0` only for a user without
 *   committed events — a 404 for a user with committed events is otherwise a wrong answer;
 * - 503: only with `Retry-After`;
 * - a connection error: only when the target instance was killed during the request;
 * - anything else (500, 400, a timeout...) is a failure.
 *
 * Whole-cluster ranges: a 200 holds every user with committed events, sorted, each entry judged
 * as an active answer.
 */
export class QueryChecker {
  readonly tally: QueryTally = {
    keyAnswers: 0,
    activeOk: 0,
    staleOk: 0,
    staleWithoutLag: 0,
    activeNotFound: 0,
    staleNotFound: 0,
    unavailable: 0,
    unavailableReasons: {},
    rangeAnswers: 0,
    rangeOk: 0,
    rangeUnavailable: 0,
    connectionErrorsKilled: 0,
    connectionErrors: 0,
    exactPrefix: 0,
    activeAboveCommitted: 0,
    failures: 0,
  };
  /** The first failures, described. */
  readonly failures: string[] = [];
  private readonly random: SeededRandom;
  private readonly users: string[];
  private workers: Promise<void>[] = [];
  private stopped = false;
  private requests = 0;

  constructor(
    private readonly cluster: OrderStatsCluster,
    private readonly feed: ChaosEventFeed,
    private readonly committed: ChaosCommittedOffsets,
    readonly options: QueryCheckerOptions,
  ) {
    this.random = new SeededRandom(options.seed);
    this.users = feed.users();
  }

  /** Share of single-key answers that were a 200 (active or marked standby). */
  get availability(): number {
    const { keyAnswers, activeOk, staleOk } = this.tally;
    return keyAnswers === 0 ? 0 : (activeOk + staleOk) / keyAnswers;
  }

  /**
   * Share of single-key answers that were not refused: a 200, or a checked 404 (a user without
   * committed events, which is the right answer). {@link availability} counts those 404s
   * against the run; early in a run, when many users have no event yet, they are most of the
   * difference between the two.
   */
  get answered(): number {
    const { keyAnswers, activeOk, staleOk, activeNotFound, staleNotFound } = this.tally;
    const right = activeOk + staleOk + activeNotFound + staleNotFound;
    return keyAnswers === 0 ? 0 : right / keyAnswers;
  }

  start(): void {
    this.workers = Array.from({ length: this.options.concurrency }, () => this.work());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.workers);
  }

  private async work(): Promise<void> {
    while (!this.stopped) {
      const alive = this.cluster.aliveSeats();
      if (alive.length === 0 || this.feed.dispatched === 0) {
        await sleep(50);
        continue;
      }
      const route = this.route(alive[this.random.nextInt(0, alive.length - 1)]);
      const n = ++this.requests;
      if (n % this.options.rangeEvery === 0) await this.queryRange(route);
      else await this.queryKey(route, this.users[this.random.nextInt(0, this.users.length - 1)]);
      await sleep(this.options.pauseMs);
    }
  }

  private route(seat: ClusterSeat): QueryRoute {
    const via = this.options.via;
    if (via)
      return { label: 'the Service', get: (path) => via.get(path), killedDuring: () => false };
    return {
      label: `seat ${seat.index}`,
      get: (path) => this.cluster.get(seat, path),
      killedDuring: (started, ended) => seat.killedAt.some((t) => t >= started && t <= ended),
    };
  }

  private async queryKey(route: QueryRoute, userId: string): Promise<void> {
    const started = Date.now();
    const committed = this.feed.committedOf(
      userId,
      this.committed.committed(this.feed.partitionOf(userId)),
    );
    let answer: SeatAnswer;
    try {
      answer = await route.get(`/stats/${encodeURIComponent(userId)}`);
    } catch (error) {
      this.connectionError(route, started, `GET /stats/${userId}`, error);
      return;
    }
    const dispatched = this.feed.dispatchedOf(userId);
    this.tally.keyAnswers++;
    const where = `GET /stats/${userId} via ${route.label}`;
    const stale = header(answer.headers, 'x-stale');
    if (stale !== undefined && stale !== 'true') return this.fail(`${where}: X-Stale '${stale}'`);
    const servedBy = header(answer.headers, 'x-served-by');
    if (!this.isMember(servedBy)) {
      return this.fail(`${where}: ${answer.status} with X-Served-By '${servedBy}'`);
    }
    const lag = header(answer.headers, 'x-lag');
    if (stale && (answer.status === 200 || answer.status === 404)) {
      if (lag === undefined) {
        this.tally.staleWithoutLag++;
        return this.fail(`${where}: a stale ${answer.status} without X-Lag`);
      }
      if (!/^[0-9]+$/.test(lag)) return this.fail(`${where}: X-Lag '${lag}'`);
    }
    // A copy that says it is not behind must hold every committed event, as the active does.
    const current = !stale || lag === '0';
    switch (answer.status) {
      case 200: {
        const value = parse(answer.body);
        const bounds = { dispatched, committed };
        const bad = judgeStats(this.feed, this.options.guarantee, userId, value, bounds, current);
        if (bad) return this.fail(`${where} (${stale ? `stale, lag ${lag}` : 'active'}): ${bad}`);
        if (stale) {
          this.tally.staleOk++;
        } else {
          this.tally.activeOk++;
          if (committed > 0) this.tally.activeAboveCommitted++;
        }
        const v = value as { count: number; sum: number };
        if (isExactPrefix(this.feed, userId, v, dispatched)) this.tally.exactPrefix++;
        return;
      }
      case 404:
        if (committed > 0 && current) {
          return this.fail(
            `${where}: 404 from ${stale ? 'a standby at lag 0' : 'the active'} for a user with ${committed} committed events`,
          );
        }
        if (stale) this.tally.staleNotFound++;
        else this.tally.activeNotFound++;
        return;
      case 503:
        if (!validRetryAfter(answer.headers['retry-after'])) {
          return this.fail(`${where}: 503 without a valid Retry-After: ${answer.body}`);
        }
        this.tally.unavailable++;
        {
          const reason = unavailableReason(answer.body);
          this.tally.unavailableReasons[reason] = (this.tally.unavailableReasons[reason] ?? 0) + 1;
        }
        return;
      default:
        return this.fail(`${where}: unexpected ${answer.status} ${answer.body.slice(0, 300)}`);
    }
  }

  private async queryRange(route: QueryRoute): Promise<void> {
    const started = Date.now();
    const snapshot = new Map(this.users.map((u) => [u, this.committedOf(u)]));
    const path = `/stats/range?from=${this.users[0]}&to=${this.users[this.users.length - 1]}`;
    let answer: SeatAnswer;
    try {
      answer = await route.get(path);
    } catch (error) {
      this.connectionError(route, started, `GET ${path}`, error);
      return;
    }
    this.tally.rangeAnswers++;
    const where = `GET ${path} via ${route.label}`;
    if (answer.status === 503) {
      if (!validRetryAfter(answer.headers['retry-after'])) {
        return this.fail(`${where}: 503 without a valid Retry-After`);
      }
      this.tally.rangeUnavailable++;
      return;
    }
    if (answer.status !== 200) {
      return this.fail(`${where}: unexpected ${answer.status} ${answer.body.slice(0, 300)}`);
    }
    if (header(answer.headers, 'x-stale') !== undefined) return this.fail(`${where}: X-Stale set`);
    const entries = parse(answer.body) as { userId: string; count: number; sum: number }[];
    if (!Array.isArray(entries)) return this.fail(`${where}: body is not an array`);
    const seen = new Set<string>();
    let previous = '';
    for (const entry of entries) {
      if (!snapshot.has(entry.userId)) return this.fail(`${where}: unknown user ${entry.userId}`);
      if (entry.userId <= previous) return this.fail(`${where}: not sorted at ${entry.userId}`);
      previous = entry.userId;
      seen.add(entry.userId);
      const bounds = {
        dispatched: this.feed.dispatchedOf(entry.userId),
        committed: snapshot.get(entry.userId) ?? 0,
      };
      const bad = judgeStats(this.feed, this.options.guarantee, entry.userId, entry, bounds, true);
      if (bad) return this.fail(`${where}: ${bad}`);
    }
    const missing = [...snapshot].filter(([u, c]) => c > 0 && !seen.has(u));
    if (missing.length > 0) {
      const [u, c] = missing[0];
      return this.fail(
        `${where}: complete 200 misses ${missing.length} users with committed events (${u}: ${c})`,
      );
    }
    this.tally.rangeOk++;
  }

  private committedOf(userId: string): number {
    return this.feed.committedOf(userId, this.committed.committed(this.feed.partitionOf(userId)));
  }

  private connectionError(route: QueryRoute, started: number, what: string, error: unknown): void {
    if (route.killedDuring(started, Date.now())) {
      this.tally.connectionErrorsKilled++;
      return;
    }
    this.tally.connectionErrors++;
    this.fail(`${what} via ${route.label} (not killed meanwhile): ${String(error)}`);
  }

  private isMember(servedBy: string | undefined): boolean {
    return this.cluster.seats.some((s) => servedBy === `127.0.0.1:${s.port}`);
  }

  private fail(message: string): void {
    this.tally.failures++;
    if (this.failures.length < 50) this.failures.push(`${new Date().toISOString()} ${message}`);
  }
}

function parse(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** A 503 body's reason (its `message`, else the body), with numbers and hosts as `#`. */
function unavailableReason(body: string): string {
  let text = body;
  try {
    const parsed = JSON.parse(body) as { message?: unknown; reason?: unknown };
    text = String(parsed.message ?? parsed.reason ?? body);
  } catch {
    // not JSON: the body itself
  }
  return text.replace(/\d+(\.\d+)*(:\d+)?/g, '#').slice(0, 160);
}

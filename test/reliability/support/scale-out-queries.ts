import { SeededRandom } from '../../../apps/event-generator/src/random';
import type { ChaosEventFeed } from './chaos-event-feed';
import type { ClusterSeat, OrderStatsCluster, SeatAnswer } from './order-stats-cluster';
import { header, judgeStats, validRetryAfter, type Guarantee } from './query-rules';
import type { PartitionProgress, PhaseWindow } from './scale-out-progress';

/** How one answer was classified. */
export type AnswerKind = 'ok' | 'refused' | 'wrong' | 'other';

/** One single-key query and its classification. */
interface QueryRecord {
  readonly sentAt: number;
  readonly partition: number;
  readonly kind: AnswerKind;
  /** A refusal's partition, instance and reason (its body's `message`, digits as `#`). */
  readonly reason?: string;
}

/** Answers of one phase, split by whether the key's partition changed owner in it. */
export interface PhaseAnswers {
  readonly total: number;
  readonly ok: number;
  /** 503 with `Retry-After`. */
  readonly refused: number;
  readonly refusedUnmovedKeys: number;
  readonly refusedMovedKeys: number;
  /** Why keys whose partition kept its owner were refused: `p<n> at <instance>: <why>` to count. */
  readonly refusedUnmovedReasons: Record<string, number>;
  /** Queries of keys whose partition kept / changed its owner. */
  readonly unmovedKeyQueries: number;
  readonly movedKeyQueries: number;
  /** 200s or 404s that broke a rule, and 503s without `Retry-After`. */
  readonly wrong: number;
  /** Any other status, and connection errors. */
  readonly other: number;
}

/**
 * Queries every user in turn (round robin over the sorted users, `concurrency` workers taking
 * the next one), each `GET /stats/:userId` sent to a random live instance among those a
 * Service would send it to (a joining one once ready), so that most are forwarded to the key's
 * owner by the application's routing. Every answer is classified:
 *
 * - `ok`: a 200 whose value is sound ({@link judgeStats}: never newer than what was produced,
 *   never older than what was committed before the request was sent), or a 404 for a user
 *   without committed events (no standbys here: a 200 or 404 marked `X-Stale` comes from a
 *   warm-up replica and is judged as a standby's, with its `X-Lag`);
 * - `refused`: a 503 with a valid `Retry-After`;
 * - `wrong`: a 200 or 404 that breaks a rule, or a 503 without `Retry-After`;
 * - `other`: any other status, or no HTTP answer. A connection cut while the instance it went
 *   to was being shut down (its SIGTERM) is counted apart as `cutByShutdown`, and so is a 503
 *   (with a valid `Retry-After`) that instance itself gave once shutting down (`refusedByShutdown`:
 *   a query sent before it left the Service's endpoints, answered after its SIGTERM; its client
 *   is stopping, as Kafka Streams refuses queries outside RUNNING and REBALANCING, and the
 *   caller retries elsewhere). Neither says anything about the rebalance the phase measures.
 *
 * Each answer is kept with its send time and partition, so that it can be attributed to a
 * phase and to "partition moved" or not once the phase's owners before and after are known.
 */
export class RoundRobinQueries {
  private readonly records: QueryRecord[] = [];
  /** The first `wrong` and `other` answers, described. */
  readonly failures: string[] = [];
  /** Connection errors from an instance while it shut down (SIGTERM sent, not yet exited). */
  cutByShutdown = 0;
  /** 503s an instance gave itself while it shut down (SIGTERM sent, not yet exited). */
  refusedByShutdown = 0;
  /** 200s marked `X-Stale` (a warm-up replica answered). */
  staleOk = 0;
  private readonly users: string[];
  private readonly random: SeededRandom;
  private next = 0;
  private workers: Promise<void>[] = [];
  private stopped = false;
  /** Seats being shut down, and since when: a connection cut by them is expected. */
  private readonly shuttingDown = new Map<ClusterSeat, number>();
  /**
   * The seats queries go to, as a Kubernetes Service's endpoints: the first ones from the
   * start, a joining one once {@link admit}ted (its readiness probe passed), a leaving one no
   * more from {@link shuttingDownNow}.
   */
  private readonly admitted = new Set<ClusterSeat>();
  /** Every instance that was a member at some point (`host:port`): a valid `X-Served-By`. */
  private readonly members = new Set<string>();

  constructor(
    private readonly cluster: OrderStatsCluster,
    private readonly feed: ChaosEventFeed,
    private readonly progress: PartitionProgress,
    private readonly guarantee: Guarantee,
    seed: number,
    private readonly concurrency = 2,
  ) {
    this.users = feed.users();
    this.random = new SeededRandom(seed);
  }

  start(): void {
    for (const seat of this.cluster.seats) this.admitted.add(seat);
    this.workers = Array.from({ length: this.concurrency }, () => this.work());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.workers);
  }

  /** Sends queries to a (joining) seat too, from now on. */
  admit(seat: ClusterSeat): void {
    this.admitted.add(seat);
  }

  /** Marks a seat as being shut down (call before its SIGTERM): no more queries go to it. */
  shuttingDownNow(seat: ClusterSeat): void {
    this.admitted.delete(seat);
    this.shuttingDown.set(seat, Date.now());
  }

  /** Full round-robin passes over the users so far. */
  get passes(): number {
    return Math.floor(this.next / this.users.length);
  }

  /** Every query sent in `window`, classified; `moved` holds the partitions that moved in it. */
  phase(window: PhaseWindow, moved: ReadonlySet<number>): PhaseAnswers {
    const inside = this.records.filter((r) => r.sentAt >= window.start && r.sentAt <= window.end);
    const count = (test: (r: QueryRecord) => boolean): number => inside.filter(test).length;
    return {
      total: inside.length,
      ok: count((r) => r.kind === 'ok'),
      refused: count((r) => r.kind === 'refused'),
      refusedUnmovedKeys: count((r) => r.kind === 'refused' && !moved.has(r.partition)),
      refusedMovedKeys: count((r) => r.kind === 'refused' && moved.has(r.partition)),
      refusedUnmovedReasons: inside
        .filter((r) => r.kind === 'refused' && !moved.has(r.partition))
        .reduce<Record<string, number>>((acc, r) => {
          const reason = r.reason ?? '?';
          acc[reason] = (acc[reason] ?? 0) + 1;
          return acc;
        }, {}),
      unmovedKeyQueries: count((r) => !moved.has(r.partition)),
      movedKeyQueries: count((r) => moved.has(r.partition)),
      wrong: count((r) => r.kind === 'wrong'),
      other: count((r) => r.kind === 'other'),
    };
  }

  private async work(): Promise<void> {
    while (!this.stopped) {
      const alive = this.cluster.aliveSeats().filter((s) => this.admitted.has(s));
      if (alive.length === 0 || this.feed.dispatched === 0) {
        await new Promise((r) => setTimeout(r, 50));
        continue;
      }
      const userId = this.users[this.next++ % this.users.length];
      const seat = alive[this.random.nextInt(0, alive.length - 1)];
      await this.query(seat, userId);
    }
  }

  private async query(seat: ClusterSeat, userId: string): Promise<void> {
    const sentAt = Date.now();
    for (const s of this.cluster.seats) this.members.add(`127.0.0.1:${s.port}`);
    const partition = this.feed.partitionOf(userId);
    const committed = this.feed.committedOf(userId, this.progress.committed(partition));
    const where = `GET /stats/${userId} (p${partition}) via seat ${seat.index}`;
    const record = (kind: AnswerKind, why?: string, reason?: string): void => {
      this.records.push({ sentAt, partition, kind, reason });
      if (why !== undefined && this.failures.length < 50) {
        this.failures.push(`${new Date(sentAt).toISOString()} ${kind}: ${where}: ${why}`);
      }
    };
    let answer: SeatAnswer;
    try {
      answer = await this.cluster.get(seat, `/stats/${encodeURIComponent(userId)}`, 15_000);
    } catch (error) {
      const since = this.shuttingDown.get(seat);
      if (since !== undefined && since <= Date.now()) {
        this.cutByShutdown++;
        return;
      }
      return record('other', `no answer: ${String(error)}`);
    }
    const dispatched = this.feed.dispatchedOf(userId);
    const stale = header(answer.headers, 'x-stale') === 'true';
    const lag = header(answer.headers, 'x-lag');
    // A copy that says it is not behind must hold every committed event, as the active does.
    const current = !stale || lag === '0';
    const servedBy = header(answer.headers, 'x-served-by');
    if (servedBy === undefined || !this.members.has(servedBy)) {
      return record('wrong', `${answer.status} with X-Served-By '${servedBy}'`);
    }
    if (stale && (answer.status === 200 || answer.status === 404) && !/^[0-9]+$/.test(lag ?? '')) {
      return record('wrong', `stale ${answer.status} with X-Lag '${lag}'`);
    }
    switch (answer.status) {
      case 200: {
        const value = parse(answer.body);
        const bounds = { dispatched, committed };
        const bad = judgeStats(this.feed, this.guarantee, userId, value, bounds, current);
        if (bad) return record('wrong', `${stale ? `stale, lag ${lag}` : 'active'}: ${bad}`);
        if (stale) this.staleOk++;
        return record('ok');
      }
      case 404:
        if (committed > 0 && current) {
          return record('wrong', `404 for a user with ${committed} committed events`);
        }
        return record('ok');
      case 503:
        if (!validRetryAfter(answer.headers['retry-after'])) {
          return record('wrong', `503 without a valid Retry-After: ${answer.body.slice(0, 200)}`);
        }
        if (servedBy === `127.0.0.1:${seat.port}` && this.shuttingDown.has(seat)) {
          this.refusedByShutdown++;
          return;
        }
        return record(
          'refused',
          undefined,
          `p${partition} at ${servedBy}: ${refusalReason(answer.body)}`,
        );
      default:
        return record('other', `${answer.status} ${answer.body.slice(0, 300)}`);
    }
  }
}

/** A 503's `message` with its digits as `#`, without the key: refusals of one kind group. */
function refusalReason(body: string): string {
  const message = (parse(body) as { message?: unknown } | null)?.message;
  return typeof message === 'string'
    ? message
        .replace(/user-\S+/g, '<key>')
        .replace(/[0-9]+/g, '#')
        .slice(0, 160)
    : body.slice(0, 80);
}

function parse(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}

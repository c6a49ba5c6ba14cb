import type { Answer, OrderStatsInstance } from '../../../tools/instances/order-stats-instance';
import type { HttpTestCluster } from '../../reliability/support/http-cluster';

/** The refusal counters of an instance, by reason: between instances (query) and of hops. */
export interface Refusals {
  readonly query: Record<string, number>;
  readonly hop: Record<string, number>;
}

/** The instance's `query_refusals_total` and `hop_refusals_total` by reason, from `/metrics`. */
export async function refusalsOf(instance: OrderStatsInstance): Promise<Refusals> {
  const text = String((await instance.request('/metrics')).body);
  const read = (metric: string) => {
    const result: Record<string, number> = {};
    for (const match of text.matchAll(
      new RegExp(`^kafka_streams_${metric}\\{reason="(\\w+)"\\} (\\d+)$`, 'gm'),
    )) {
      result[match[1]] = Number(match[2]);
    }
    return result;
  };
  return { query: read('query_refusals_total'), hop: read('hop_refusals_total') };
}

/** What changed between two readings of counters: the reasons that moved, by how much. */
export function countDelta(
  before: Readonly<Record<string, number>>,
  after: Readonly<Record<string, number>>,
): Record<string, number> {
  return Object.fromEntries(
    Object.entries(after)
      .map(([reason, n]) => [reason, n - (before[reason] ?? 0)] as const)
      .filter(([, n]) => n !== 0),
  );
}

/** How the answers of a {@link ClientLoop} came out. */
export interface ClientLoopTally {
  /** 200 with the exact truth (a user, or the whole range). */
  exact: number;
  /** 503 with Retry-After (rebalancing, or a part did not answer: retry). */
  unavailable: number;
  /**
   * A standby copy's answer behind the truth, marked `X-Stale: true` with its `X-Lag`: the
   * user's state after a prefix of its events (404 for none). At `X-Lag: 0` only before every
   * event was committed (see {@link ClientLoop.allCommitted}): a standby's lag counts the
   * changelog records it has not applied, and an at-least-once owner holds up to a commit
   * interval of work that is not in its changelog yet.
   */
  staleBehind: number;
  /** Anything else: a wrong value, another status, a failed request. */
  wrong: number;
  /** The first few wrong answers, for the failure message. */
  readonly samples: string[];
  /** The test's events ({@link ClientLoop.mark}), with the time since the loop started. */
  readonly timeline: string[];
}

/**
 * A client that keeps asking the instances of `cluster` (a user, every fifth request the whole
 * range) while they restart one at a time, leaving out the one being restarted (as a Service
 * does once a pod is terminating): what callers of a rolling update see. Every answer must be
 * the exact truth, a 503 with `Retry-After`, or a standby copy's answer marked stale and no
 * further behind than its changelog allows (see {@link ClientLoopTally.staleBehind}).
 */
export class ClientLoop {
  readonly tally: ClientLoopTally = {
    exact: 0,
    unavailable: 0,
    staleBehind: 0,
    wrong: 0,
    samples: [],
    timeline: [],
  };
  /** The endpoint left out (being restarted), if any. */
  leftOut: string | undefined;
  private running = true;
  private readonly done: Promise<void>;
  private readonly startedAt = Date.now();
  private committed = false;

  constructor(private readonly cluster: HttpTestCluster) {
    this.done = this.run();
  }

  /**
   * Says every event is in the changelogs (an owner's graceful close committed its work): from
   * now on a standby copy's answer marked `X-Lag: 0` must be the exact truth.
   */
  allCommitted(): void {
    this.committed = true;
    this.mark('every event committed');
  }

  /** Notes a test event in the tally's timeline (what a wrong answer is read against). */
  mark(event: string): void {
    this.tally.timeline.push(`+${Date.now() - this.startedAt} ms ${event}`);
  }

  async stop(): Promise<ClientLoopTally> {
    this.running = false;
    await this.done;
    return this.tally;
  }

  private async run(): Promise<void> {
    const users = this.cluster.users;
    const range = users.map((userId) => ({ userId, ...this.cluster.truth.get(userId) }));
    for (let n = 0; this.running; n++) {
      const instance = this.cluster.instances[n % this.cluster.instances.length];
      if (!instance.alive || instance.endpoint === this.leftOut) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        continue;
      }
      const user = users[n % users.length];
      const [path, expected] =
        n % 5 === 4
          ? ['/stats/range?from=user-000&to=user-999', range]
          : [`/stats/${user}`, this.cluster.truth.get(user)];
      try {
        const answer = await instance.request(path);
        if (answer.status === 200 && JSON.stringify(answer.body) === JSON.stringify(expected)) {
          this.tally.exact++;
        } else if (answer.status === 503 && answer.headers.get('retry-after') !== null) {
          this.tally.unavailable++;
        } else if (!path.includes('range') && this.staleBehind(user, answer)) {
          this.tally.staleBehind++;
        } else {
          const marks = ['x-served-by', 'x-stale', 'x-lag']
            .map((name) => `${name}=${answer.headers.get(name)}`)
            .join(' ');
          this.wrong(
            `${path} via ${instance.endpoint} at +${Date.now() - this.startedAt} ms (left out: ${this.leftOut ?? 'none'}): ${answer.status} ${marks} ${JSON.stringify(answer.body)}`,
          );
        }
      } catch (error) {
        // Left out while the request was under way: not an answer a caller would have got.
        if (instance.endpoint !== this.leftOut) {
          this.wrong(`${path} via ${instance.endpoint}: ${String(error)}`);
        }
      }
    }
  }

  /**
   * A standby copy's answer that is behind but sound: marked stale with a lag, and the user's
   * state after a prefix of its events (a 404 for none) — a lag of 0 only before every event
   * was committed (after, a copy at lag 0 holds them all).
   */
  private staleBehind(user: string, answer: Answer): boolean {
    const lag = answer.headers.get('x-lag');
    if (answer.headers.get('x-stale') !== 'true' || lag === null || !/^\d+$/.test(lag)) {
      return false;
    }
    if (this.committed && lag === '0') return false;
    if (answer.status === 404) return true;
    const body = answer.body as { count?: unknown } | null;
    if (answer.status !== 200 || typeof body?.count !== 'number') return false;
    const prefix = this.cluster.statsAfter(user, body.count);
    return prefix !== undefined && JSON.stringify(answer.body) === JSON.stringify(prefix);
  }

  private wrong(sample: string): void {
    this.tally.wrong++;
    if (this.tally.samples.length < 5) this.tally.samples.push(sample.slice(0, 400));
  }
}

import type { OrderStatsInstance } from '../../../tools/instances/order-stats-instance';
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
 * the exact truth or a 503.
 */
export class ClientLoop {
  readonly tally: ClientLoopTally = {
    exact: 0,
    unavailable: 0,
    wrong: 0,
    samples: [],
    timeline: [],
  };
  /** The endpoint left out (being restarted), if any. */
  leftOut: string | undefined;
  private running = true;
  private readonly done: Promise<void>;
  private readonly startedAt = Date.now();

  constructor(private readonly cluster: HttpTestCluster) {
    this.done = this.run();
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

  private wrong(sample: string): void {
    this.tally.wrong++;
    if (this.tally.samples.length < 5) this.tally.samples.push(sample.slice(0, 400));
  }
}

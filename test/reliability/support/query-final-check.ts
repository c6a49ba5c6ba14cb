import type { Admin } from 'kafkajs';
import type { ChaosEventFeed } from './chaos-event-feed';
import type { ClusterSeat, OrderStatsCluster, SeatAnswer } from './order-stats-cluster';
import { header, type Guarantee } from './query-rules';

/** The cluster's final state against the truth. */
export interface FinalCheck {
  /** Users read, each through GET /stats/:userId and in every instance's whole-cluster range. */
  readonly users: number;
  /** Sum of the counts the cluster reports (GET /stats/:userId). */
  readonly countedEvents: number;
  /** `countedEvents - true events` (0 under exactly-once). */
  readonly duplicates: number;
  /** Every difference from the truth the guarantee does not allow. */
  readonly mismatches: string[];
}

/**
 * Waits until every instance is alive and ready and the group's committed input offsets reach
 * the end of every input partition: everything produced is processed and committed.
 */
export async function waitCaughtUp(
  cluster: OrderStatsCluster,
  admin: Admin,
  groupId: string,
  topic: string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    cluster.assertHealthy();
    try {
      if (await cluster.allReady()) {
        const ends = await admin.fetchTopicOffsets(topic);
        const [entry] = await admin.fetchOffsets({ groupId, topics: [topic] });
        const committed = new Map(entry.partitions.map((p) => [p.partition, Number(p.offset)]));
        const behind = ends.filter((e) => (committed.get(e.partition) ?? -1) < Number(e.high));
        if (behind.length === 0) return;
        last = behind
          .map((e) => `p${e.partition} ${committed.get(e.partition)}/${e.high}`)
          .join(' ');
      } else {
        last = 'not every instance ready';
      }
    } catch (error) {
      last = String(error);
    }
    if (Date.now() > deadline) throw new Error(`not caught up after ${timeoutMs} ms: ${last}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * Reads every user through `GET /stats/:userId` (round robin over the instances) and the whole
 * cluster through `GET /stats/range` on each instance, and compares with the truth: exactly
 * equal under exactly-once; under at-least-once never below it (`count >= true count`), with a
 * surplus sum each duplicated event allows (0.01..999.99 per duplicate; equal sums without
 * duplicates). A 503 (a rebalance, e.g. a warm-up probe) is retried after its `Retry-After`,
 * as a stale answer is; any other status is a mismatch.
 */
export async function checkFinalState(
  cluster: OrderStatsCluster,
  feed: ChaosEventFeed,
  guarantee: Guarantee,
  retryForMs = 90_000,
): Promise<FinalCheck> {
  const users = feed.users();
  const mismatches: string[] = [];
  let countedEvents = 0;
  const compare = (where: string, userId: string, value: { count: number; sum: number }): void => {
    const truth = feed.finalOf(userId);
    const cents = Math.round(value.sum * 100);
    const what = `${where} ${userId}: {count ${value.count}, sum ${value.sum}} vs truth {${truth.count}, ${truth.cents / 100}}`;
    if (guarantee === 'exactly_once_v2' || value.count === truth.count) {
      if (value.count !== truth.count || cents !== truth.cents) mismatches.push(what);
      return;
    }
    const duplicates = value.count - truth.count;
    const surplus = cents - truth.cents;
    if (duplicates < 0 || surplus < duplicates || surplus > duplicates * 99_999) {
      mismatches.push(`${what} (lost updates or impossible surplus)`);
    }
  };

  for (const [i, userId] of users.entries()) {
    const seat = cluster.seats[i % cluster.seats.length];
    const answer = await settled(cluster, seat, `/stats/${encodeURIComponent(userId)}`, retryForMs);
    if (answer.status !== 200) {
      mismatches.push(
        `GET /stats/${userId} via seat ${seat.index}: ${answer.status} ${answer.body}`,
      );
      continue;
    }
    const value = JSON.parse(answer.body) as { count: number; sum: number };
    countedEvents += value.count;
    compare(`GET /stats via seat ${seat.index}`, userId, value);
  }

  const path = `/stats/range?from=${users[0]}&to=${users[users.length - 1]}`;
  for (const seat of cluster.seats) {
    const answer = await settled(cluster, seat, path, retryForMs);
    if (answer.status !== 200) {
      mismatches.push(`GET ${path} via seat ${seat.index}: ${answer.status} ${answer.body}`);
      continue;
    }
    const entries = JSON.parse(answer.body) as { userId: string; count: number; sum: number }[];
    const ids = entries.map((e) => e.userId);
    if (JSON.stringify(ids) !== JSON.stringify(users)) {
      const missing = users.filter((u) => !ids.includes(u));
      mismatches.push(
        `range via seat ${seat.index}: ${entries.length} entries for ${users.length} users, missing ${missing.slice(0, 5).join(',')}`,
      );
    }
    for (const entry of entries) compare(`range via seat ${seat.index}`, entry.userId, entry);
  }
  const trueEvents = feed.options.events;
  return { users: users.length, countedEvents, duplicates: countedEvents - trueEvents, mismatches };
}

/** GET, retrying 503s and stale answers (after `Retry-After`) until the deadline. */
async function settled(
  cluster: OrderStatsCluster,
  seat: ClusterSeat,
  path: string,
  retryForMs: number,
): Promise<SeatAnswer> {
  const deadline = Date.now() + retryForMs;
  for (;;) {
    const answer = await cluster.get(seat, path);
    const retry = answer.status === 503 || header(answer.headers, 'x-stale') !== undefined;
    if (!retry || Date.now() > deadline) return answer;
    const seconds = Number(header(answer.headers, 'retry-after') ?? '1');
    await new Promise((r) => setTimeout(r, Math.min(seconds, 2) * 1000));
  }
}

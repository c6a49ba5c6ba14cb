import type { ChaosEventFeed } from './chaos-event-feed';
import type { OrderStatsCluster, SeatAnswer } from './order-stats-cluster';
import { header, type Guarantee } from './query-rules';

/** One look at an application against everything produced so far (the feed held). */
export interface ExactView {
  /** Every user's answer is the truth (exactly-once) or holds all of it (at-least-once). */
  readonly exact: boolean;
  /** Users whose answer is not there yet: behind the truth, 503, stale or 404; first 10. */
  readonly behind: string[];
  /** How many users are behind, and by how many events in all. */
  readonly usersBehind: number;
  readonly eventsBehind: number;
  /** Answers the guarantee forbids (exactly-once: more than produced or a wrong sum); first 10. */
  readonly wrong: string[];
}

/**
 * Reads every user with produced events through `GET /stats/:userId` (round robin over the
 * live seats) and the whole cluster through `GET /stats/range` on each live seat, and compares
 * with what the feed produced so far: under exactly-once each user's count is exactly its
 * events produced and its sum their sum; under at-least-once the count is at least that
 * (duplicates are allowed, missing events are not). Call it while the feed is held with every
 * event acknowledged. A 503 or a stale answer counts as behind, not wrong.
 */
export async function exactNow(
  app: OrderStatsCluster,
  feed: ChaosEventFeed,
  guarantee: Guarantee,
): Promise<ExactView> {
  const behind: string[] = [];
  const wrong: string[] = [];
  let usersBehind = 0;
  let eventsBehind = 0;
  const users = feed.users().filter((u) => feed.dispatchedOf(u) > 0);
  const seats = app.aliveSeats();
  if (seats.length === 0) {
    return { exact: false, behind: ['no live seat'], usersBehind: 0, eventsBehind: 0, wrong };
  }
  const judge = (where: string, userId: string, value: { count: number; sum: number }) => {
    const truth = feed.dispatchedOf(userId);
    const cents = Math.round(value.sum * 100);
    if (value.count < truth) {
      usersBehind++;
      eventsBehind += truth - value.count;
      if (behind.length < 10) behind.push(`${where} ${userId}: ${value.count} of ${truth}`);
      return;
    }
    if (guarantee !== 'exactly_once_v2') return;
    if (value.count > truth || cents !== feed.cumCentsOf(userId, truth)) {
      if (wrong.length < 10) {
        wrong.push(`${where} ${userId}: {${value.count}, ${value.sum}} vs ${truth} produced`);
      }
    }
  };
  const notThere = (where: string, userId: string, answer: SeatAnswer | Error) => {
    usersBehind++;
    eventsBehind += feed.dispatchedOf(userId);
    const what = isAnswer(answer)
      ? `${answer.status}${header(answer.headers, 'x-stale') ? ' stale' : ''}`
      : String(answer);
    if (behind.length < 10) behind.push(`${where} ${userId}: ${what}`);
  };
  // Eight requests at a time, 5 s each: a hung instance costs one poll seconds, not minutes.
  let next = 0;
  const worker = async () => {
    while (next < users.length) {
      const i = next++;
      const userId = users[i];
      const seat = seats[i % seats.length];
      const where = `seat ${seat.index}`;
      const answer = await app
        .get(seat, `/stats/${encodeURIComponent(userId)}`, 5_000)
        .catch((e: Error) => e);
      if (!isAnswer(answer) || answer.status !== 200 || header(answer.headers, 'x-stale')) {
        notThere(where, userId, answer);
        continue;
      }
      judge(where, userId, JSON.parse(answer.body) as { count: number; sum: number });
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  const all = feed.users();
  const path = `/stats/range?from=${all[0]}&to=${all[all.length - 1]}`;
  for (const seat of seats) {
    const where = `range via seat ${seat.index}`;
    const answer = await app.get(seat, path, 5_000).catch((e: Error) => e);
    if (!isAnswer(answer) || answer.status !== 200) {
      notThere(where, '(all users)', answer);
      continue;
    }
    const entries = JSON.parse(answer.body) as { userId: string; count: number; sum: number }[];
    const byUser = new Map(entries.map((e) => [e.userId, e]));
    for (const userId of users) {
      const entry = byUser.get(userId);
      if (entry) judge(where, userId, entry);
      else notThere(where, userId, new Error('missing from the range'));
    }
  }
  const exact = usersBehind === 0 && wrong.length === 0;
  return { exact, behind, usersBehind, eventsBehind, wrong };
}

/**
 * An HTTP answer rather than the error of a request that got none (told apart by shape: an
 * error made by Node's http module is no `instanceof Error` inside a Jest test's realm).
 */
function isAnswer(value: SeatAnswer | Error): value is SeatAnswer {
  return typeof (value as Partial<SeatAnswer>).status === 'number' && 'headers' in value;
}

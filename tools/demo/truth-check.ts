/**
 * The demo's verdict: every user's final answer compared with the generator's truth. Counts
 * must be equal; sums equal to the cent (the application adds floats, the truth integer
 * cents); a user without events must be unknown (404).
 */
import {
  allUserIds,
  sumToCents,
  type TruthReport,
  type UserTotals,
} from '../../apps/event-generator/src/main';
import type { StatsAnswer } from './http-probe';

/** One user whose final answer is not the truth. */
export interface Mismatch {
  readonly userId: string;
  /** What the truth says; undefined for a user with no event (expected 404). */
  readonly expected: UserTotals | undefined;
  /** The answer got, in words. */
  readonly got: string;
}

/** The outcome of comparing every user's answer with the truth. */
export interface TruthComparison {
  /** Users compared: every user id of the run (`user-001`..). */
  readonly users: number;
  readonly matched: number;
  readonly mismatches: readonly Mismatch[];
  readonly ok: boolean;
}

/**
 * True when `answer` is what the truth expects: an authoritative (not stale) 200 with the
 * same count and the same sum in cents, or a 404 for a user without events.
 */
export function answerMatches(expected: UserTotals | undefined, answer: StatsAnswer): boolean {
  if (expected === undefined) return answer.kind === 'not-found';
  if (answer.kind !== 'local' && answer.kind !== 'forwarded' && answer.kind !== 'unmarked') {
    return false;
  }
  return (
    answer.stats !== undefined &&
    answer.stats.count === expected.count &&
    sumToCents(answer.stats.sum) === sumToCents(expected.sum)
  );
}

/** An answer in a few words, for mismatch lists. */
export function describeAnswer(answer: StatsAnswer | undefined): string {
  if (answer === undefined) return 'no answer';
  switch (answer.kind) {
    case 'local':
    case 'forwarded':
    case 'unmarked':
      return `count ${answer.stats!.count}, sum ${answer.stats!.sum}`;
    case 'stale':
      return `stale count ${answer.stats!.count}, sum ${answer.stats!.sum} (lag ${answer.lag ?? '?'})`;
    case 'not-found':
      return '404 unknown user';
    case 'unavailable':
      return `503${answer.retryAfter ? ` (Retry-After ${answer.retryAfter})` : ''}`;
    case 'down':
      return `no answer (${answer.detail ?? 'down'})`;
    case 'error':
      return answer.detail ?? 'error';
  }
}

/**
 * Compares the answers (by user id) with the truth, for every user id of the run: a user
 * with events must have its totals, a user without must be unknown.
 */
export function compareWithTruth(
  truth: TruthReport,
  answers: ReadonlyMap<string, StatsAnswer>,
): TruthComparison {
  const mismatches: Mismatch[] = [];
  const ids = allUserIds(truth.users);
  for (const userId of ids) {
    const expected = truth.totals[userId];
    const answer = answers.get(userId);
    if (answer === undefined || !answerMatches(expected, answer)) {
      mismatches.push({ userId, expected, got: describeAnswer(answer) });
    }
  }
  return {
    users: ids.length,
    matched: ids.length - mismatches.length,
    mismatches,
    ok: mismatches.length === 0,
  };
}

/**
 * Asks `query` for every user of the run, `concurrency` at a time, and compares the answers
 * with the truth.
 */
export async function checkAllUsers(
  truth: TruthReport,
  query: (userId: string) => Promise<StatsAnswer>,
  concurrency = 8,
): Promise<{ comparison: TruthComparison; answers: Map<string, StatsAnswer> }> {
  const ids = allUserIds(truth.users);
  const answers = new Map<string, StatsAnswer>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < ids.length) {
      const userId = ids[next++];
      answers.set(userId, await query(userId));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, ids.length) }, worker));
  return { comparison: compareWithTruth(truth, answers), answers };
}

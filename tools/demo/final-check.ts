/** The demo's last step: every user's answer checked against the generator's truth, and the table. */
import { allUserIds, type TruthReport } from '../../apps/event-generator/src/main';
import type { AppInstance } from './app-instance';
import { queryStats, sleep, type StatsAnswer } from './http-probe';
import {
  describeOrigin,
  formatCount,
  formatSeconds,
  formatSum,
  formatTable,
  LiveScreen,
  Palette,
  statsCells,
} from './render';
import { checkAllUsers, type TruthComparison } from './truth-check';

/** The final table (every user when few, else the shown ones and any mismatch) and verdict. */
export function finalReport(
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
export async function finalCheck(
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

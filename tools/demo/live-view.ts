/**
 * What the demo has seen of the instances' answers, and the live table made of it: the
 * latest answer per user and instance, counts of each kind of answer per instance, and the
 * notable firsts (first forwarded answer, first 503, first stale answer...).
 */
import type { AnswerKind, StatsAnswer } from './http-probe';
import {
  describeOrigin,
  formatCount,
  formatSeconds,
  formatTable,
  Palette,
  statsCells,
  type Align,
} from './render';

/** One poll's answer. */
export interface Observation {
  readonly userId: string;
  /** Label of the instance asked (`A`). */
  readonly via: string;
  readonly answer: StatsAnswer;
}

/** Kinds worth a line of their own the first time an instance gives one. */
const NOTABLE: ReadonlySet<AnswerKind> = new Set([
  'local',
  'forwarded',
  'stale',
  'unavailable',
  'down',
  'error',
  'unmarked',
]);
/** After a reset (the SIGTERM), only what the rebalance brings is worth a line. */
const NOTABLE_AFTER_RESET: ReadonlySet<AnswerKind> = new Set([
  'stale',
  'unavailable',
  'down',
  'error',
  'unmarked',
]);

/** What the frame shows around the table. */
export interface FrameContext {
  readonly title: string;
  readonly phase: string;
  readonly elapsedMs: number;
  readonly generatorLine: string;
  readonly instanceLines: readonly string[];
  /** Events produced so far per user (the generator's truth). */
  readonly produced: (userId: string) => number;
  /** What the tallies count since (`since start`, `since SIGTERM`). */
  readonly tallyLabel: string;
}

/** The demo's memory of answers; see the file comment. */
export class LiveView {
  private readonly latest = new Map<string, Map<string, StatsAnswer>>();
  private tallies = new Map<string, Map<AnswerKind, number>>();
  private firsts = new Set<string>();
  private notable = NOTABLE;
  private readonly highest = new Map<string, number>();
  /** Non-stale 200 answers whose count was lower than one seen in an earlier round. */
  regressions = 0;
  /** Highest `X-Lag` seen on a standby answer. */
  maxLag: number | undefined;

  constructor(
    readonly users: readonly string[],
    readonly instances: readonly string[],
    readonly labels: ReadonlyMap<string, string>,
    private readonly palette: Palette,
  ) {}

  /**
   * Records one round of answers (all asked at once). Returns the observations that are the
   * first of their kind for their instance since the last {@link LiveView.resetTallies}.
   */
  recordRound(round: readonly Observation[]): Observation[] {
    const firsts: Observation[] = [];
    const roundHighest = new Map<string, number>();
    for (const o of round) {
      let perInstance = this.latest.get(o.userId);
      if (!perInstance) this.latest.set(o.userId, (perInstance = new Map()));
      perInstance.set(o.via, o.answer);
      let tally = this.tallies.get(o.via);
      if (!tally) this.tallies.set(o.via, (tally = new Map()));
      tally.set(o.answer.kind, (tally.get(o.answer.kind) ?? 0) + 1);
      const key = `${o.via}:${o.answer.kind}`;
      if (this.notable.has(o.answer.kind) && !this.firsts.has(key)) {
        this.firsts.add(key);
        firsts.push(o);
      }
      if (o.answer.kind === 'stale' && o.answer.lag !== undefined) {
        this.maxLag = Math.max(this.maxLag ?? 0, o.answer.lag);
      }
      const count = authoritativeCount(o.answer);
      if (count !== undefined) {
        if (count < (this.highest.get(o.userId) ?? 0)) this.regressions++;
        roundHighest.set(o.userId, Math.max(roundHighest.get(o.userId) ?? 0, count));
      }
    }
    // Compared with earlier rounds only: answers of one round race each other.
    for (const [userId, count] of roundHighest) {
      this.highest.set(userId, Math.max(this.highest.get(userId) ?? 0, count));
    }
    return firsts;
  }

  /**
   * Starts counting answers afresh, e.g. at the SIGTERM; from then on only the answers a
   * rebalance brings (stale, 503, down, errors) are noted as firsts.
   */
  resetTallies(): void {
    this.tallies = new Map();
    this.firsts = new Set();
    this.notable = NOTABLE_AFTER_RESET;
  }

  /** The latest answer for a user through an instance. */
  answer(userId: string, via: string): StatsAnswer | undefined {
    return this.latest.get(userId)?.get(via);
  }

  /** How many answers of `kind` an instance gave since the last reset. */
  tally(via: string, kind: AnswerKind): number {
    return this.tallies.get(via)?.get(kind) ?? 0;
  }

  /** One instance's tally in words: `52 local · 48 forwarded · 3 × 503`. */
  tallyLine(via: string): string {
    const p = this.palette;
    const parts: string[] = [];
    const add = (kind: AnswerKind, text: (n: number) => string): void => {
      const n = this.tally(via, kind);
      if (n > 0) parts.push(text(n));
    };
    add('local', (n) => p.green(`${formatCount(n)} local`));
    add('forwarded', (n) => p.cyan(`${formatCount(n)} forwarded`));
    add('stale', (n) =>
      p.yellow(
        `${formatCount(n)} stale${this.maxLag !== undefined ? ` (max lag ${this.maxLag})` : ''}`,
      ),
    );
    add('unavailable', (n) => p.yellow(`${formatCount(n)} × 503`));
    add('not-found', (n) => p.dim(`${formatCount(n)} × 404`));
    add('down', (n) => p.dim(`${formatCount(n)} refused`));
    add('error', (n) => p.red(`${formatCount(n)} errors`));
    add('unmarked', (n) => p.red(`${formatCount(n)} without X-Served-By`));
    return parts.length > 0 ? parts.join(' · ') : p.dim('no answer yet');
  }

  /** The live area: header lines, the table of users, the tallies. */
  frame(ctx: FrameContext): string[] {
    const p = this.palette;
    const header = [
      `${p.bold(ctx.title)}  ${p.dim('·')}  ${p.bold(ctx.phase)}  ${p.dim('·')}  ${formatSeconds(ctx.elapsedMs)}`,
      `generator  ${ctx.generatorLine}`,
      ...ctx.instanceLines.map((line, i) => `${i === 0 ? 'instances' : '         '}  ${line}`),
      '',
    ];
    const head = ['user', 'produced'];
    const align: Align[] = ['left', 'right'];
    for (const via of this.instances) {
      head.push(`via ${via}: count`, 'sum', 'answer');
      align.push('right', 'right', 'left');
    }
    const rows: string[][] = [head.map((h) => p.dim(h))];
    for (const userId of this.users) {
      const row = [userId, formatCount(ctx.produced(userId))];
      for (const via of this.instances) {
        const answer = this.answer(userId, via);
        row.push(...statsCells(answer, p));
        row.push(answer ? describeOrigin(answer, this.labels, p) : p.dim('…'));
      }
      rows.push(row);
    }
    const tallies = this.instances.map(
      (via, i) =>
        `${i === 0 ? `answers ${ctx.tallyLabel}` : ' '.repeat(`answers ${ctx.tallyLabel}`.length)}  via ${via}: ${this.tallyLine(via)}`,
    );
    const regress =
      this.regressions > 0
        ? [p.red(`${this.regressions} non-stale answer(s) lower than an earlier one`)]
        : [];
    return [...header, ...formatTable(rows, align), '', ...tallies, ...regress];
  }
}

/** The count of an answer that claims to be current (not stale), if it has one. */
function authoritativeCount(answer: StatsAnswer): number | undefined {
  return answer.kind === 'local' || answer.kind === 'forwarded' || answer.kind === 'unmarked'
    ? answer.stats?.count
    : undefined;
}

/**
 * Output of the demo: aligned tables, answer cells in words, and a live area redrawn in place
 * on a terminal (or printed every few seconds when the output is a file or a pipe).
 */
import type { StatsAnswer } from './http-probe';

/** ANSI styling, off when the output is not a terminal or NO_COLOR is set. */
export class Palette {
  constructor(readonly enabled: boolean) {}

  private wrap(code: number, text: string): string {
    return this.enabled ? `\x1b[${code}m${text}\x1b[0m` : text;
  }
  bold(text: string): string {
    return this.wrap(1, text);
  }
  dim(text: string): string {
    return this.wrap(2, text);
  }
  red(text: string): string {
    return this.wrap(31, text);
  }
  green(text: string): string {
    return this.wrap(32, text);
  }
  yellow(text: string): string {
    return this.wrap(33, text);
  }
  cyan(text: string): string {
    return this.wrap(36, text);
  }
}

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*[A-Za-z]/g;

/** Width of `text` on screen: without ANSI escapes. */
export function visibleWidth(text: string): number {
  return text.replace(ANSI, '').length;
}

/** Cuts `text` to `width` visible characters, keeping escapes (and resetting styles). */
export function truncateVisible(text: string, width: number): string {
  if (visibleWidth(text) <= width) return text;
  let out = '';
  let shown = 0;
  for (let i = 0; i < text.length && shown < width;) {
    ANSI.lastIndex = i;
    const escape = ANSI.exec(text);
    if (escape && escape.index === i) {
      out += escape[0];
      i += escape[0].length;
      continue;
    }
    out += text[i++];
    shown++;
  }
  return text.includes('\x1b[') ? `${out}\x1b[0m` : out;
}

/** Column alignment in {@link formatTable}. */
export type Align = 'left' | 'right';

/**
 * Lays out rows of cells (ANSI-styled allowed) in columns separated by two spaces: each
 * column as wide as its widest cell, cells aligned as `align` says (left by default).
 */
export function formatTable(
  rows: readonly (readonly string[])[],
  align: readonly Align[] = [],
): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, c) => (widths[c] = Math.max(widths[c] ?? 0, visibleWidth(cell))));
  }
  return rows.map((row) =>
    row
      .map((cell, c) => {
        const pad = ' '.repeat(widths[c] - visibleWidth(cell));
        return align[c] === 'right' ? pad + cell : c === row.length - 1 ? cell : cell + pad;
      })
      .join('  ')
      .trimEnd(),
  );
}

/** An integer with thousands separators: `12,345`. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** A sum with 2 decimals and thousands separators: `1,234.50`. */
export function formatSum(n: number): string {
  return n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** Seconds with one decimal: `12.3 s`. */
export function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/**
 * How an answer came, in words: `local`, `forwarded to B`, `B's standby · stale, lag 3`,
 * `503 · Retry-After 1`, `404`, `down (ECONNREFUSED)`. `labels` names instances by endpoint.
 */
export function describeOrigin(
  answer: StatsAnswer,
  labels: ReadonlyMap<string, string>,
  palette: Palette,
): string {
  const label = (endpoint: string | undefined): string =>
    endpoint === undefined ? '?' : (labels.get(endpoint) ?? endpoint);
  switch (answer.kind) {
    case 'local':
      return palette.green('local');
    case 'forwarded':
      return palette.cyan(`forwarded to ${label(answer.servedBy)}`);
    case 'stale':
      return palette.yellow(
        `${answer.servedBy ? `${label(answer.servedBy)}'s standby` : 'standby'} · X-Stale, X-Lag ${answer.lag ?? '?'}`,
      );
    case 'unmarked':
      return palette.red('no X-Served-By!');
    case 'not-found':
      return palette.dim('404 (no event yet)');
    case 'unavailable':
      return palette.yellow(`503 · Retry-After ${answer.retryAfter ?? '(none!)'}`);
    case 'down':
      return palette.dim(`down (${answer.detail ?? 'no answer'})`);
    case 'error':
      return palette.red(shorten(answer.detail ?? 'error', 48));
  }
}

/** `text` cut to `max` characters, with an ellipsis when cut. */
export function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The count and sum cells of an answer (`–` when it has none). */
export function statsCells(answer: StatsAnswer | undefined, palette: Palette): [string, string] {
  if (answer?.stats === undefined) return [palette.dim('–'), palette.dim('–')];
  const cells: [string, string] = [formatCount(answer.stats.count), formatSum(answer.stats.sum)];
  return answer.kind === 'stale' ? [palette.yellow(cells[0]), palette.yellow(cells[1])] : cells;
}

/** Where the live output goes. */
export interface ScreenOutput {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
  readonly rows?: number;
}

/**
 * A live area under a scrolling log. On a terminal the area is redrawn in place (its lines
 * cut to the screen's width, so that it can be counted and erased); elsewhere each new frame is printed only every `plainEveryMs`
 * (or when forced), so that a log file stays readable.
 */
export class LiveScreen {
  private drawn = 0;
  private frame: readonly string[] = [];
  private lastPlain = 0;

  constructor(
    private readonly out: ScreenOutput,
    private readonly options: { readonly live: boolean; readonly plainEveryMs: number },
  ) {}

  /** A line that stays (above the live area). */
  log(line: string): void {
    if (!this.options.live) {
      this.out.write(`${line}\n`);
      return;
    }
    this.clear();
    // Not cut to the screen's width: a log line may wrap, only the live area is counted.
    this.out.write(`${line}\n`);
    this.draw(this.frame);
  }

  /** Replaces the live area with `lines`; `force` prints a frame even off a terminal. */
  show(lines: readonly string[], force = false): void {
    this.frame = lines;
    if (this.options.live) {
      this.clear();
      this.draw(lines);
      return;
    }
    const now = Date.now();
    if (!force && now - this.lastPlain < this.options.plainEveryMs) return;
    this.lastPlain = now;
    this.out.write(`${lines.join('\n')}\n\n`);
  }

  /** Leaves the current area on screen as it is; later output goes below it. */
  finish(): void {
    this.drawn = 0;
    this.frame = [];
  }

  private clear(): void {
    if (this.drawn > 0) this.out.write(`\x1b[${this.drawn}F\x1b[J`);
    this.drawn = 0;
  }

  private draw(lines: readonly string[]): void {
    // Higher than the screen, the area could not be erased: cut it.
    const rows = this.out.rows;
    const shown = rows && rows > 2 ? lines.slice(0, rows - 1) : lines;
    if (shown.length === 0) return;
    this.out.write(`${shown.map((l) => this.fit(l)).join('\n')}\n`);
    this.drawn = shown.length;
  }

  private fit(line: string): string {
    const width = this.out.columns;
    return width && width > 20 ? truncateVisible(line, width - 1) : line;
  }
}

import type { Bar } from './svg-chart';
import type { SystemRow } from './system-row';

/**
 * The `query` scenario's table: requests or gets per second, p50 and p99 latency, and the
 * ratios to the Java row of the same comparison key (ops/s over Java's; p99 over Java's, so
 * above 1 means slower), the 1-minute load average while the row was measured, and notes.
 */
export function formatQueryTable(rows: readonly SystemRow[]): string {
  const header = [
    'system',
    'ops/s',
    'p50 ms',
    'p99 ms',
    'ops/s vs Java',
    'p99 vs Java',
    'load',
    'note',
  ];
  const lines = rows.map((row) => {
    const r = row.result;
    const java = javaRow(row, rows);
    const opsRatio = ratio(r?.opsPerSec, java?.result?.opsPerSec);
    const p99Ratio = ratio(r?.p99Ms, java?.result?.p99Ms);
    return [
      row.system,
      r?.opsPerSec !== undefined ? r.opsPerSec.toLocaleString('en-US') : '-',
      r?.p50Ms !== undefined ? formatMs(r.p50Ms) : '-',
      r?.p99Ms !== undefined ? formatMs(r.p99Ms) : '-',
      opsRatio !== undefined && row.role !== 'java' ? `${opsRatio.toFixed(2)}x` : '-',
      p99Ratio !== undefined && row.role !== 'java' ? `${p99Ratio.toFixed(2)}x` : '-',
      loadText(row),
      noteText(row),
    ];
  });
  return renderTable(header, lines, new Set([1, 2, 3, 4, 5, 6]));
}

/**
 * The `memory` scenario's table: per system and store count, the resident memory after the
 * stores were filled, read back and a GC forced, the peak (VmHWM), and the growth of the
 * resident memory from the second-largest to the largest store count of the same variant.
 */
export function formatMemoryTable(rows: readonly SystemRow[]): string {
  const header = ['system', 'RSS MB', 'peak RSS MB', 'growth', 'seconds', 'load', 'note'];
  const lines = rows.map((row) => {
    const r = row.result;
    const growth = memoryGrowth(row, rows);
    return [
      row.system,
      r?.rssMb !== undefined ? r.rssMb.toFixed(0) : '-',
      r?.peakRssMb !== undefined ? r.peakRssMb.toFixed(0) : '-',
      growth
        ? `${growth.percent >= 0 ? '+' : ''}${growth.percent.toFixed(0)}% vs ${growth.fromStores}`
        : '-',
      r?.seconds !== undefined ? r.seconds.toFixed(1) : '-',
      loadText(row),
      noteText(row),
    ];
  });
  return renderTable(header, lines, new Set([1, 2, 3, 4, 5]));
}

/**
 * How the RSS of a memory row grew from the row of the same variant (compareKey) with the next
 * smaller store count: `{fromStores, percent}`; undefined for the smallest count or a failure.
 * Store counts are read from `row.system`'s ", N stores" suffix.
 */
export function memoryGrowth(
  row: SystemRow,
  rows: readonly SystemRow[],
): { fromStores: number; percent: number } | undefined {
  const stores = storeCountOf(row);
  const rss = row.result?.rssMb;
  if (stores === undefined || rss === undefined) return undefined;
  const smaller = rows
    .filter((r) => r.compareKey === row.compareKey && r.result?.rssMb !== undefined)
    .map((r) => ({ stores: storeCountOf(r), rss: r.result!.rssMb! }))
    .filter(
      (r): r is { stores: number; rss: number } => r.stores !== undefined && r.stores < stores,
    )
    .sort((a, b) => b.stores - a.stores)[0];
  if (!smaller) return undefined;
  return { fromStores: smaller.stores, percent: ((rss - smaller.rss) / smaller.rss) * 100 };
}

/** The store count in a memory row's label (`..., 10 stores`). */
export function storeCountOf(row: Pick<SystemRow, 'system'>): number | undefined {
  const match = /, (\d+) stores?$/.exec(row.system);
  return match ? Number(match[1]) : undefined;
}

/** Bars of the `query` chart: p99 latency per row (log scale). */
export function queryBars(rows: readonly SystemRow[]): Bar[] {
  return rows.map((row) => ({
    label: row.system,
    kind: row.role === 'java' ? 'java' : 'ours',
    value: row.result?.p99Ms,
    text: row.result
      ? `p50 ${formatMs(row.result.p50Ms!)} / p99 ${formatMs(row.result.p99Ms!)} ms`
      : undefined,
    missing: row.failure ? 'FAILED' : 'not measured',
  }));
}

/** Bars of the `memory` chart: RSS after fill per row. */
export function memoryBars(rows: readonly SystemRow[]): Bar[] {
  return rows.map((row) => ({
    label: row.system,
    kind: row.role === 'java' ? 'java' : 'ours',
    value: row.result?.rssMb,
    text:
      row.result?.rssMb !== undefined
        ? `${row.result.rssMb.toFixed(0)} MB (peak ${row.result.peakRssMb?.toFixed(0) ?? '?'})`
        : undefined,
    missing: row.failure ? 'FAILED' : 'not measured',
  }));
}

/** Milliseconds with 3 significant digits, never in exponent notation. */
export function formatMs(ms: number): string {
  if (ms >= 100) return ms.toFixed(0);
  if (ms >= 10) return ms.toFixed(1);
  if (ms >= 1) return ms.toFixed(2);
  return Number(ms.toPrecision(3)).toString();
}

function javaRow(row: SystemRow, rows: readonly SystemRow[]): SystemRow | undefined {
  return rows.find((r) => r.role === 'java' && r.result && r.compareKey === row.compareKey);
}

function ratio(a: number | undefined, b: number | undefined): number | undefined {
  return a !== undefined && b !== undefined && b > 0 ? a / b : undefined;
}

function loadText(row: SystemRow): string {
  return row.loadAverage
    ? `${row.loadAverage[0].toFixed(1)}-${row.loadAverage[1].toFixed(1)}`
    : '-';
}

function noteText(row: SystemRow): string {
  const note = row.failure ? `FAILED: ${row.failure.split('\n')[0]}` : (row.note ?? '');
  return note.length > 120 ? `${note.slice(0, 117)}...` : note;
}

function renderTable(header: string[], lines: string[][], numeric: ReadonlySet<number>): string {
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const render = (cells: string[]): string =>
    `| ${cells.map((c, i) => (numeric.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (numeric.has(i) ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
  return [render(header), rule, ...lines.map(render)].join('\n');
}

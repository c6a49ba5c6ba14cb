import { ratioToJava, shareOfConsumeCeiling } from './ratios';
import type { SystemRow } from './system-row';

/**
 * The scenario's table as text: events/s, seconds, peak RSS, the ratio to the Java peer of the
 * same guarantee (or phase), the share of the consume-only ceiling of the row's own client
 * (`% of ceiling`: kafkajs for rows without a Node client), and notes. Failed rows show no
 * figures.
 */
export function formatTable(rows: readonly SystemRow[]): string {
  const header = [
    'system',
    'events/s',
    'seconds',
    'peak RSS MB',
    'vs Java',
    '% of ceiling',
    'note',
  ];
  const lines = rows.map((row) => {
    const r = row.result;
    const vsJava = r ? ratioToJava(row, rows) : undefined;
    const share = shareOfConsumeCeiling(row, rows);
    const note = row.failure ? `FAILED: ${firstLine(row.failure)}` : (row.note ?? '');
    return [
      row.system,
      r?.eventsPerSec !== undefined ? r.eventsPerSec.toLocaleString('en-US') : '-',
      r?.seconds !== undefined ? r.seconds.toFixed(2) : '-',
      r?.peakRssMb !== undefined ? r.peakRssMb.toFixed(0) : '-',
      vsJava !== undefined ? `${vsJava.toFixed(2)}x` : '-',
      share !== undefined ? `${(share * 100).toFixed(0)}%` : '-',
      note.length > 110 ? `${note.slice(0, 107)}...` : note,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const numeric = new Set([1, 2, 3, 4, 5]);
  const render = (cells: string[]): string =>
    `| ${cells.map((c, i) => (numeric.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (numeric.has(i) ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
  return [render(header), rule, ...lines.map(render)].join('\n');
}

function firstLine(text: string): string {
  return text.split('\n')[0];
}

/** What a bar stands for (its colour). */
export type BarKind = 'ours' | 'java' | 'ceiling' | 'other';

/** One bar: a value, or the text shown instead ("FAILED", "not measured"). */
export interface Bar {
  readonly label: string;
  readonly kind: BarKind;
  readonly value?: number;
  /** Shown after the bar instead of the bare value (units, a second figure). */
  readonly text?: string;
  readonly missing?: string;
}

/** Chart options: a log scale for values spanning decades (microseconds to milliseconds). */
export interface ChartOptions {
  readonly logScale?: boolean;
}

const COLOURS: Readonly<Record<BarKind, string>> = {
  ours: '#2f7ed8',
  java: '#e8743b',
  ceiling: '#9a9a9a',
  other: '#6aa84f',
};
const LEGEND: Readonly<Record<BarKind, string>> = {
  ours: 'nest-streams',
  java: 'Java Kafka Streams',
  ceiling: 'ceilings (no processing)',
  other: 'other Node peer',
};

/**
 * A horizontal bar chart as a standalone SVG document (no dependencies): one bar per system,
 * labelled with its value, in the order given.
 */
export function svgChart(
  title: string,
  subtitle: string,
  bars: readonly Bar[],
  options: ChartOptions = {},
): string {
  const max = Math.max(1, ...bars.map((b) => b.value ?? 0));
  const values = bars.map((b) => b.value).filter((v): v is number => v !== undefined && v > 0);
  // Log scale: the smallest value gets a short bar, the largest the full width.
  const logMin = Math.log10(Math.min(...values, max) / 2);
  const logMax = Math.log10(Math.max(...values, 1e-9));
  const scale = (value: number): number =>
    options.logScale
      ? (Math.log10(Math.max(value, 1e-12)) - logMin) / Math.max(1e-9, logMax - logMin)
      : value / max;
  const labelWidth = Math.max(200, ...bars.map((b) => Math.ceil(b.label.length * 7.2) + 24));
  const barWidth = 420;
  const rowHeight = 30;
  const top = 92;
  const textWidth = Math.max(120, ...bars.map((b) => (b.text?.length ?? 0) * 7 + 12));
  const width = labelWidth + barWidth + textWidth;
  const height = top + bars.length * rowHeight + 20;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="13">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="16" y="26" font-size="17" font-weight="bold">${escape(title)}</text>`,
    `<text x="16" y="48" fill="#555555">${escape(subtitle)}</text>`,
  ];
  let x = 16;
  for (const kind of ['ours', 'java', 'ceiling', 'other'] as const) {
    if (!bars.some((b) => b.kind === kind)) continue;
    parts.push(
      `<rect x="${x}" y="62" width="12" height="12" fill="${COLOURS[kind]}"/>`,
      `<text x="${x + 18}" y="73" fill="#333333">${escape(LEGEND[kind])}</text>`,
    );
    x += 40 + LEGEND[kind].length * 7;
  }
  bars.forEach((bar, i) => {
    const y = top + i * rowHeight;
    parts.push(
      `<text x="${labelWidth - 10}" y="${y + 19}" text-anchor="end">${escape(bar.label)}</text>`,
    );
    if (bar.value === undefined) {
      parts.push(
        `<text x="${labelWidth}" y="${y + 19}" fill="#aa3333">${escape(bar.missing ?? 'not measured')}</text>`,
      );
      return;
    }
    const w = Math.max(1, Math.round(scale(bar.value) * barWidth));
    parts.push(
      `<rect x="${labelWidth}" y="${y + 5}" width="${w}" height="${rowHeight - 10}" fill="${COLOURS[bar.kind]}"/>`,
      `<text x="${labelWidth + w + 6}" y="${y + 19}">${escape(bar.text ?? bar.value.toLocaleString('en-US'))}</text>`,
    );
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

function escape(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** One line of a Nest application's console log. */
export interface NestLogLine {
  /** `LOG`, `WARN`, `ERROR`, `DEBUG`, `VERBOSE` or `FATAL`. */
  readonly level: string;
  /** The logger's context (`KafkaStreams`, `kafkajs`, ...); empty when the line has none. */
  readonly context: string;
  readonly message: string;
}

// eslint-disable-next-line no-control-regex -- the escape sequences of a coloured console
const ANSI = /\u001b\[[0-9;]*m/g;
const LINE =
  /^\[Nest\] \d+\s+-\s+.*?\s+(LOG|WARN|ERROR|DEBUG|VERBOSE|FATAL)\s+(?:\[([^\]]+)\] )?(.*)$/;

/**
 * The lines of Nest's console logger in a process's output (colours removed; other output, such
 * as a stack trace's continuation lines, left out).
 */
export function nestLogLines(output: string): NestLogLine[] {
  const lines: NestLogLine[] = [];
  for (const raw of output.replace(ANSI, '').split('\n')) {
    const match = LINE.exec(raw.trimEnd());
    if (match) lines.push({ level: match[1], context: match[2] ?? '', message: match[3] });
  }
  return lines;
}

/** The lines at `WARN`, `ERROR` or `FATAL`: what a healthy process should never print. */
export function warningsAndErrors(output: string): NestLogLine[] {
  return nestLogLines(output).filter((line) => ['WARN', 'ERROR', 'FATAL'].includes(line.level));
}

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';

/** A child process to run and measure. */
export interface ChildSpec {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly timeoutMs: number;
  /** Prefix for the child's stderr lines when they are echoed. */
  readonly label: string;
  /** Echo the child's stderr as it comes (else only its tail on failure). */
  readonly verbose?: boolean;
  /** Polled every 200 ms while the child runs: once it resolves true, the child is SIGKILLed. */
  readonly killWhen?: () => Promise<boolean>;
}

/** What a child left: its exit, its last JSON line on stdout, and the peak RSS seen. */
export interface ChildOutcome {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  /** The last stdout line that parsed as a JSON object. */
  readonly result: Readonly<Record<string, unknown>> | undefined;
  /** The highest VmHWM read from /proc/<pid>/status while it ran, in MiB. */
  readonly polledPeakRssMb: number | undefined;
  /** The last lines of its stderr and stdout, for error messages. */
  readonly outputTail: string;
  /** The machine's 1-minute load average when the child started and ended. */
  readonly loadAverage: readonly [number, number];
  /** Killed because `killWhen` said so. */
  readonly killed: boolean;
}

const POLL_MS = 200;
const TAIL_LINES = 40;

/**
 * Runs a child process to its end, polling its peak resident memory (VmHWM) and keeping its
 * result line. A child still running at `timeoutMs` is killed (SIGKILL).
 */
export function runChild(spec: ChildSpec): Promise<ChildOutcome> {
  const loadAtStart = loadavg()[0];
  return new Promise((resolve, reject) => {
    const child = spawn(spec.command, [...spec.args], {
      cwd: spec.cwd,
      env: spec.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const tail: string[] = [];
    const remember = (line: string): void => {
      tail.push(line);
      if (tail.length > TAIL_LINES) tail.shift();
    };
    let result: Record<string, unknown> | undefined;
    let stdoutRest = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      const lines = (stdoutRest + chunk).split('\n');
      stdoutRest = lines.pop() ?? '';
      for (const line of lines) {
        remember(line);
        const parsed = parseJsonObject(line);
        if (parsed) result = parsed;
      }
    });
    let stderrRest = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      const lines = (stderrRest + chunk).split('\n');
      stderrRest = lines.pop() ?? '';
      for (const line of lines) {
        remember(line);
        if (spec.verbose) process.stderr.write(`  [${spec.label}] ${line}\n`);
      }
    });

    let peak: number | undefined;
    const poll = (): void => {
      if (child.pid === undefined) return;
      const value = readPeakRssMb(child.pid);
      if (value !== undefined) peak = Math.max(peak ?? 0, value);
    };
    let killed = false;
    let checking = false;
    const poller = setInterval(() => {
      poll();
      if (!spec.killWhen || killed || checking) return;
      checking = true;
      spec
        .killWhen()
        .then((kill) => {
          if (kill && child.exitCode === null && !killed) {
            killed = true;
            child.kill('SIGKILL');
          }
        })
        .catch(() => undefined)
        .finally(() => (checking = false));
    }, POLL_MS);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, spec.timeoutMs);

    child.on('error', (error) => {
      clearInterval(poller);
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (exitCode, signal) => {
      clearInterval(poller);
      clearTimeout(timer);
      for (const rest of [stdoutRest, stderrRest]) {
        if (!rest) continue;
        remember(rest);
        const parsed = parseJsonObject(rest);
        if (parsed) result = parsed;
      }
      resolve({
        exitCode,
        signal,
        timedOut,
        result,
        polledPeakRssMb: peak,
        outputTail: tail.join('\n'),
        loadAverage: [round2(loadAtStart), round2(loadavg()[0])],
        killed,
      });
    });
  });
}

function parseJsonObject(line: string): Record<string, unknown> | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith('{') || !trimmed.endsWith('}')) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function readPeakRssMb(pid: number): number | undefined {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

/**
 * Process management for the demo: every child runs in a process group of its own, so that
 * stopping it stops whatever it started too, and nothing the demo started outlives it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, readdirSync, readFileSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';

/** What to run. */
export interface ProcessSpec {
  /** Short name for messages (`A`, `B`). */
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** Where the child's stdout and stderr go (appended); kept in memory only when absent. */
  readonly logFile?: string;
  /** Called with each line the child writes (stdout and stderr). */
  readonly onLine?: (line: string) => void;
}

/** How a child ended. */
export interface ExitInfo {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

const TAIL_LINES = 60;

/**
 * One child process, leader of its own process group. {@link ManagedProcess.stop} signals the
 * whole group, escalates to SIGKILL after a grace period, and makes sure no member of the
 * group is left.
 */
export class ManagedProcess {
  /** Resolves when the child has exited. */
  readonly exited: Promise<ExitInfo>;
  private exitInfo: ExitInfo | undefined;
  private readonly lines: string[] = [];
  private readonly log: WriteStream | undefined;

  /** Starts `spec` (use {@link ProcessSupervisor.start}, which keeps track of it). */
  constructor(
    readonly spec: ProcessSpec,
    private readonly child: ChildProcess = spawnGroupLeader(spec),
  ) {
    if (spec.logFile) {
      mkdirSync(dirname(spec.logFile), { recursive: true });
      this.log = createWriteStream(spec.logFile, { flags: 'a' });
    }
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        resolve(this.exitInfo);
      });
      child.once('error', (error) => {
        this.remember(`[spawn error] ${error.message}`);
        this.exitInfo ??= { code: -1, signal: null };
        resolve(this.exitInfo);
      });
    });
    for (const stream of [child.stdout, child.stderr]) {
      if (!stream) continue;
      let rest = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        this.log?.write(chunk);
        const parts = (rest + chunk).split('\n');
        rest = parts.pop() ?? '';
        for (const line of parts) this.remember(line);
      });
      stream.on('end', () => {
        if (rest) this.remember(rest);
        rest = '';
      });
    }
    void this.exited.then(() => this.log?.end());
  }

  get name(): string {
    return this.spec.name;
  }

  /** The child's pid, which is also its process group id. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** True until the child has exited. */
  get alive(): boolean {
    return this.exitInfo === undefined;
  }

  /** How it ended, once it has. */
  get exit(): ExitInfo | undefined {
    return this.exitInfo;
  }

  /** The last lines it wrote (stdout and stderr interleaved). */
  tail(lines = 20): string {
    return this.lines.slice(-lines).join('\n');
  }

  /** Sends `signal` to the child's whole process group (no-op once it is gone). */
  signal(signal: NodeJS.Signals): void {
    if (this.child.pid !== undefined) signalGroup(this.child.pid, signal);
  }

  /**
   * Stops the child: `signal` (SIGTERM by default) to its group, SIGKILL to the group when it
   * has not exited after `graceMs`, then SIGKILL to anything of the group still left (a
   * grandchild that ignored the signal). Resolves with how it ended.
   */
  async stop(signal: NodeJS.Signals = 'SIGTERM', graceMs = 10_000): Promise<ExitInfo> {
    const pid = this.child.pid;
    if (pid === undefined) return this.exited;
    if (this.alive) {
      signalGroup(pid, signal);
      const timer = setTimeout(() => signalGroup(pid, 'SIGKILL'), graceMs);
      await this.exited;
      clearTimeout(timer);
    }
    await reapGroup(pid);
    return this.exited;
  }

  /** SIGKILL to the whole group, synchronously (for the last moments of the demo process). */
  killNow(): void {
    if (this.child.pid !== undefined) signalGroup(this.child.pid, 'SIGKILL');
  }

  private remember(line: string): void {
    this.lines.push(line);
    if (this.lines.length > TAIL_LINES) this.lines.shift();
    this.spec.onLine?.(line);
  }
}

/**
 * Starts children and stops them all: the demo's single owner of processes. After
 * {@link ProcessSupervisor.stopAll} (or {@link ProcessSupervisor.killAllNow}) no process it
 * started, nor any of their descendants in their groups, is left.
 */
export class ProcessSupervisor {
  private readonly children = new Set<ManagedProcess>();

  /** Starts a child in a process group of its own. */
  start(spec: ProcessSpec): ManagedProcess {
    const child = new ManagedProcess(spec);
    this.children.add(child);
    return child;
  }

  /** Every child started, alive or not. */
  get started(): readonly ManagedProcess[] {
    return [...this.children];
  }

  /** The children still alive. */
  get running(): readonly ManagedProcess[] {
    return this.started.filter((c) => c.alive);
  }

  /** Stops every child at once (SIGTERM, SIGKILL after `graceMs`) and waits for them. */
  async stopAll(graceMs = 10_000): Promise<void> {
    await Promise.all(this.started.map((c) => c.stop('SIGTERM', graceMs)));
  }

  /** SIGKILL to every child's group, synchronously: the last resort on a forced exit. */
  killAllNow(): void {
    for (const child of this.children) child.killNow();
  }
}

/**
 * Turns the first SIGINT / SIGTERM / SIGHUP into `onStop` (a graceful stop) and a later one
 * into `onForce` (kill now and exit). Signals within `debounceMs` of the first count as the
 * same one: under `npm run`, a Ctrl-C reaches the script twice (from the terminal, and
 * forwarded by npm). Returns a function that removes the handlers.
 */
export function installSignalHandlers(
  onStop: (signal: NodeJS.Signals) => void,
  onForce: (signal: NodeJS.Signals) => void,
  debounceMs = 1000,
): () => void {
  let first: number | undefined;
  const handler = (signal: NodeJS.Signals): void => {
    const now = Date.now();
    if (first === undefined) {
      first = now;
      onStop(signal);
    } else if (now - first > debounceMs) {
      onForce(signal);
    }
  };
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const s of signals) process.on(s, handler);
  return () => {
    for (const s of signals) process.removeListener(s, handler);
  };
}

/**
 * True while any live process belongs to group `pgid`. On Linux, zombies (exited, not yet
 * reaped) do not count: they run nothing and only their parent or init can remove them.
 */
export function groupAlive(pgid: number): boolean {
  const members = linuxProcesses()?.filter((p) => p.pgrp === pgid && p.state !== 'Z');
  if (members !== undefined) return members.length > 0;
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** True while process `pid` runs (on Linux, a zombie does not). */
export function processAlive(pid: number): boolean {
  if (process.platform === 'linux') {
    const stat = readStat(pid);
    return stat !== undefined && stat.state !== 'Z';
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

interface ProcStat {
  readonly pid: number;
  readonly state: string;
  readonly pgrp: number;
}

/** `/proc/<pid>/stat`: state and process group; undefined when the process is gone. */
function readStat(pid: number): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // pid (comm) state ppid pgrp ...; comm may hold spaces and parentheses.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { pid, state: fields[0], pgrp: Number(fields[2]) };
  } catch {
    return undefined;
  }
}

/** Every process of the machine, on Linux; undefined elsewhere. */
function linuxProcesses(): ProcStat[] | undefined {
  if (process.platform !== 'linux') return undefined;
  const stats: ProcStat[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (stat) stats.push(stat);
  }
  return stats;
}

/** Sends `signal` to process group `pgid`, ignoring a group that is gone. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // the group is gone
  }
}

function spawnGroupLeader(spec: ProcessSpec): ChildProcess {
  return spawn(spec.command, [...spec.args], {
    cwd: spec.cwd,
    env: spec.env ?? process.env,
    // A group of its own: a terminal's Ctrl-C reaches only the demo, which stops the children
    // in order; and signalling -pid reaches the child's descendants too.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * After the leader's exit: a short wait for the rest of the group, then SIGKILL to it, and a
 * bounded wait for it to go (an orphan's zombie stays in the group until something reaps it).
 */
async function reapGroup(pgid: number): Promise<void> {
  const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 50));
  let deadline = Date.now() + 1000;
  while (groupAlive(pgid) && Date.now() < deadline) await pause();
  if (!groupAlive(pgid)) return;
  signalGroup(pgid, 'SIGKILL');
  deadline = Date.now() + 2000;
  while (groupAlive(pgid) && Date.now() < deadline) await pause();
}

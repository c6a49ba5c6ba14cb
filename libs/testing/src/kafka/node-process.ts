import { existsSync, readFileSync } from 'node:fs';

/** What a broker process is doing: running, frozen by SIGSTOP, or gone (exited or a zombie). */
export type ProcessState = 'running' | 'stopped' | 'gone';

/**
 * The state of process `pid`, from `/proc/<pid>/stat` where there is one (Linux): `T` or `t`
 * is `stopped`, `Z` or `X` (a zombie not reaped yet) is `gone`. Elsewhere a signal 0 tells
 * only whether the process exists (`running`).
 */
export function processState(pid: number): ProcessState {
  const stat = `/proc/${pid}/stat`;
  if (existsSync('/proc/self/stat')) {
    let text: string;
    try {
      text = readFileSync(stat, 'utf8');
    } catch {
      return 'gone';
    }
    // `pid (comm) S ...`: the command may hold spaces and parentheses, the state follows the last `)`.
    const state = text.slice(text.lastIndexOf(')') + 2, text.lastIndexOf(')') + 3);
    if (state === 'Z' || state === 'X') return 'gone';
    return state === 'T' || state === 't' ? 'stopped' : 'running';
  }
  try {
    process.kill(pid, 0);
    return 'running';
  } catch {
    return 'gone';
  }
}

/** Whether process `pid` exists and is not a zombie (a stopped process is alive). */
export function isAlive(pid: number): boolean {
  return processState(pid) !== 'gone';
}

/**
 * Sends `signal` to the process group of `pid` (a broker is spawned detached, as the leader of
 * its own group), or to `pid` alone when it leads no group; nothing when it is gone.
 */
export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

/** Resolves true once `pid` is gone, false when it still runs after `timeoutMs`. */
export async function waitUntilGone(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}

/**
 * Stops a broker process: SIGCONT (a frozen one handles nothing), SIGTERM (a controlled
 * shutdown), and SIGKILL when it still runs after `graceMs`. Resolves once it is gone.
 */
export async function terminateGroup(pid: number, graceMs: number): Promise<void> {
  if (!isAlive(pid)) return;
  signalGroup(pid, 'SIGCONT');
  signalGroup(pid, 'SIGTERM');
  if (await waitUntilGone(pid, graceMs)) return;
  signalGroup(pid, 'SIGKILL');
  await waitUntilGone(pid, 60_000);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

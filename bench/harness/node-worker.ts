import { join, resolve } from 'node:path';
import type { ChildSpec } from './child-process';

/** The repository root (workers run from it, so tsx finds tsconfig.json). */
export const REPO_ROOT = resolve(__dirname, '..', '..');

/**
 * A child spec running `bench/workers/<worker>.ts` with Node and tsx; with `profileDir`, under
 * `--cpu-prof` (the profile is written there when the worker exits).
 */
export function nodeWorker(
  worker: string,
  args: readonly string[],
  options: {
    label: string;
    timeoutMs: number;
    verbose: boolean;
    profileDir?: string;
    /** Another checkout whose worker runs instead (`--baseline`); default this one. */
    root?: string;
    killWhen?: () => Promise<boolean>;
  },
): ChildSpec {
  const root = options.root === undefined ? REPO_ROOT : resolve(options.root);
  const profile = options.profileDir
    ? ['--cpu-prof', '--cpu-prof-dir', resolve(options.profileDir)]
    : [];
  return {
    command: process.execPath,
    args: [...profile, '--import', 'tsx', join(root, 'bench', 'workers', `${worker}.ts`), ...args],
    cwd: root,
    killWhen: options.killWhen,
    label: options.label,
    timeoutMs: options.timeoutMs,
    verbose: options.verbose,
  };
}

/**
 * A Nest application that uses the packages as a user would: a directory of its own outside
 * the repository (test/consumer/fixture copied there, its own package.json, no tsconfig
 * paths), the packed tarballs and the peers installed by npm, compiled by its own tsc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const REPO = join(__dirname, '..', '..');
const FIXTURE = join(__dirname, 'fixture');
/** The repository's TypeScript, so the consumer compiles with the same compiler. */
const TYPESCRIPT = (
  JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
    devDependencies: Record<string, string>;
  }
).devDependencies.typescript;

/** A step of the consumer test failed: the message names the step, then what it printed. */
export class ConsumerStepError extends Error {
  constructor(step: string, cause: unknown, output = '') {
    const tail = output.trim().split('\n').slice(-40).join('\n');
    super(`consumer test step "${step}" failed: ${String(cause)}${tail ? `\n${tail}` : ''}`);
  }
}

/** Runs `fn` as the step `name`: any failure becomes a {@link ConsumerStepError} naming it. */
export async function step<T>(name: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof ConsumerStepError) throw error;
    const output = (error as { output?: string }).output ?? '';
    throw new ConsumerStepError(name, error instanceof Error ? error.message : error, output);
  }
}

/**
 * The environment of a child npm, node or tsc: this process's, without the `npm_*` variables
 * an enclosing `npm test` sets (they would point npm at the repository).
 */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.toLowerCase().startsWith('npm_')) env[name] = value;
  }
  return { ...env, ...extra };
}

/** Runs a command to its end; rejects with its output when it exits non-zero or times out. */
export function run(
  command: string,
  args: readonly string[],
  cwd: string,
  timeoutMs: number,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(Object.assign(error, { output }));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else {
        const how = signal ? `killed by ${signal} after ${timeoutMs} ms` : `exit code ${code}`;
        reject(Object.assign(new Error(`${command} ${args.join(' ')}: ${how}`), { output }));
      }
    });
  });
}

/** `npm` as the enclosing `npm test` runs it (same npm), else the one on PATH. */
function npm(args: readonly string[], cwd: string, timeoutMs: number): Promise<string> {
  const cli = process.env.npm_execpath;
  return cli && cli.endsWith('.js')
    ? run(process.execPath, [cli, ...args], cwd, timeoutMs)
    : run('npm', args, cwd, timeoutMs);
}

/** The four packages' tarballs, as `npm pack` makes them (each package built first). */
export interface Tarballs {
  readonly rocksdb: string;
  readonly streams: string;
  readonly nestjs: string;
  readonly testing: string;
}

/** Packs the four workspaces into `directory` (their `prepack` builds them). */
export async function packPackages(directory: string): Promise<Tarballs> {
  const workspaces = ['libs/rocksdb', 'libs/streams', 'libs/nestjs', 'libs/testing'].flatMap(
    (w) => ['-w', w],
  );
  const output = await npm(
    ['pack', '--json', '--pack-destination', directory, ...workspaces],
    REPO,
    180_000,
  );
  const packed = JSON.parse(output.slice(output.indexOf('['))) as {
    name: string;
    filename: string;
  }[];
  const file = (name: string): string => {
    const entry = packed.find((p) => p.name === name);
    if (!entry) throw new Error(`npm pack made no tarball of ${name}`);
    return join(directory, entry.filename);
  };
  return {
    rocksdb: file('@nest-streams/rocksdb'),
    streams: file('@nest-streams/streams'),
    nestjs: file('@nest-streams/nestjs'),
    testing: file('@nest-streams/testing'),
  };
}

/** A fresh copy of the consumer application, its dependencies for one Nest major. */
export class ConsumerProject {
  readonly directory: string;

  constructor(
    readonly nestMajor: number,
    tarballs: Tarballs,
  ) {
    this.directory = mkdtempSync(join(tmpdir(), `nest-streams-consumer-nest${nestMajor}-`));
    cpSync(FIXTURE, this.directory, { recursive: true });
    const nest = `^${nestMajor}.0.0`;
    const packageJson = {
      name: 'nest-streams-consumer',
      version: '1.0.0',
      private: true,
      dependencies: {
        '@nest-streams/nestjs': `file:${tarballs.nestjs}`,
        // A dependency of @nest-streams/streams, given as its tarball (it is not published).
        '@nest-streams/rocksdb': `file:${tarballs.rocksdb}`,
        '@nest-streams/streams': `file:${tarballs.streams}`,
        '@nestjs/common': nest,
        '@nestjs/core': nest,
        '@nestjs/microservices': nest,
        '@nestjs/platform-express': nest,
        '@nestjs/platform-fastify': nest,
        '@nestjs/terminus': nest,
        'reflect-metadata': '^0.2.0',
        rxjs: '^7.8.0',
      },
      devDependencies: {
        '@nest-streams/testing': `file:${tarballs.testing}`,
        '@types/express': '^5.0.0',
        '@types/node': '^24.0.0',
        typescript: TYPESCRIPT,
      },
    };
    writeFileSync(
      join(this.directory, 'package.json'),
      `${JSON.stringify(packageJson, null, 2)}\n`,
    );
  }

  /** Installs the tarballs and the peers (npm's cache first, the registry for what it lacks). */
  install(): Promise<string> {
    return npm(['install', '--prefer-offline', '--no-audit', '--no-fund'], this.directory, 300_000);
  }

  /**
   * Whether npm's install built the RocksDB addon: `{ built: true }`, or the reason its install
   * script recorded when it did not (nest-streams would then fall back to @nxtedition/rocksdb).
   */
  installedAddonStatus(): { built: true } | { built: false; reason: string } {
    const root = join(this.directory, 'node_modules', '@nest-streams', 'rocksdb', 'build');
    if (existsSync(join(root, 'Release', 'nest_streams_rocksdb.node'))) return { built: true };
    const status = join(root, 'install-status.json');
    const reason = existsSync(status)
      ? (JSON.parse(readFileSync(status, 'utf8')) as { reason: string }).reason
      : 'no build output and no recorded reason';
    return { built: false, reason };
  }

  /** Compiles the application with its own tsconfig (strict, declarations of dependencies checked). */
  typeCheck(): Promise<string> {
    const tsc = join(this.directory, 'node_modules', 'typescript', 'bin', 'tsc');
    return run(process.execPath, [tsc, '-p', 'tsconfig.json'], this.directory, 180_000);
  }

  /** Runs the application's topology unit test (node:test, the testing package, no broker). */
  unitTest(): Promise<string> {
    const file = join('dist', 'order-stats.topology.test.js');
    return run(process.execPath, ['--test', '--test-reporter=tap', file], this.directory, 120_000);
  }

  /** Starts `node dist/main.js` with `env`. */
  start(env: Record<string, string>): ConsumerProcess {
    const child = spawn(process.execPath, [join('dist', 'main.js')], {
      cwd: this.directory,
      env: cleanEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new ConsumerProcess(child);
  }

  remove(): void {
    rmSync(this.directory, { recursive: true, force: true });
  }
}

/** A running consumer application. */
export class ConsumerProcess {
  output = '';

  constructor(readonly process: ChildProcess) {
    process.stdout!.on('data', (d: Buffer) => (this.output += d.toString()));
    process.stderr!.on('data', (d: Buffer) => (this.output += d.toString()));
  }

  get exited(): boolean {
    return this.process.exitCode !== null || this.process.signalCode !== null;
  }

  /**
   * Sends SIGTERM (SIGKILL after 20 s); resolves with how the process ended: `exit <code>`, or
   * `signal <name>` (Nest's shutdown hooks close the application, then raise the signal again).
   */
  stop(): Promise<string> {
    const how = (): string =>
      this.process.signalCode
        ? `signal ${this.process.signalCode}`
        : `exit ${String(this.process.exitCode)}`;
    return new Promise((resolve) => {
      if (this.exited) return resolve(how());
      const timer = setTimeout(() => this.process.kill('SIGKILL'), 20_000);
      this.process.once('exit', () => {
        clearTimeout(timer);
        resolve(how());
      });
      this.process.kill('SIGTERM');
    });
  }
}

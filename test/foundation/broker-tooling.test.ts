import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const REPO = join(__dirname, '..', '..');
const TSX = join(REPO, 'node_modules', '.bin', 'tsx');
const CLI = join(REPO, 'libs', 'testing', 'src', 'kafka', 'cli.ts');

/** Whether process `pid` runs: it exists and is not a zombie its parent has not reaped yet. */
function runs(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.charAt(stat.lastIndexOf(')') + 2);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/**
 * `npm run kafka:start` / `kafka:stop` on a broker of its own (a separate home, so the broker
 * the other suites use is untouched): start twice gives one address, stop leaves no process.
 */
describe('local broker tooling', () => {
  const home = mkdtempSync(join(tmpdir(), 'kafka-home-'));
  const env = { ...process.env, NEST_STREAMS_KAFKA_HOME: home };
  const cli = (command: string): string =>
    execFileSync(TSX, [CLI, command], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

  afterAll(() => {
    spawnSync(TSX, [CLI, 'stop'], { env });
    rmSync(home, { recursive: true, force: true });
  });

  it('starts idempotently and stops without leaving a process', () => {
    const first = cli('start').trim().split('\n').pop();
    expect(first).toMatch(/^KAFKA_BROKERS=127\.0\.0\.1:\d+$/);
    const { pid } = JSON.parse(readFileSync(join(home, 'broker.json'), 'utf8')) as { pid: number };
    expect(runs(pid)).toBe(true);

    const second = cli('start').trim().split('\n').pop();
    expect(second).toBe(first);

    cli('stop');
    expect(runs(pid)).toBe(false);
    const status = spawnSync(TSX, [CLI, 'status'], { env, encoding: 'utf8' });
    expect(status.status).toBe(1);
    expect(status.stdout.trim()).toBe('not running');
  });
});

// The demo's process supervision: children started, stopped and killed with their parent.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processAlive, ProcessSupervisor } from '../../tools/demo/processes';

const PARENT = join(__dirname, 'fixtures', 'supervised-parent.ts');
const NODE_FOREVER = ['-e', 'setInterval(() => {}, 1000)'];

async function eventually(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('demo process management', () => {
  it('stops a child with its grandchild, and SIGKILLs one that ignores SIGTERM', async () => {
    const supervisor = new ProcessSupervisor();
    let grandchild: number | undefined;
    const parent = supervisor.start({
      name: 'parent',
      command: process.execPath,
      args: [
        '-e',
        `const c = require('child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
         console.log('GRANDCHILD ' + c.pid); setInterval(() => {}, 1000);`,
      ],
      onLine: (line) => {
        const match = /^GRANDCHILD (\d+)$/.exec(line);
        if (match) grandchild = Number(match[1]);
      },
    });
    const stubborn = supervisor.start({
      name: 'stubborn',
      command: process.execPath,
      args: [
        '-e',
        "process.on('SIGTERM', () => {}); console.log('UP'); setInterval(() => {}, 1000);",
      ],
    });
    const plain = supervisor.start({
      name: 'plain',
      command: process.execPath,
      args: NODE_FOREVER,
    });
    await eventually(() => grandchild !== undefined && stubborn.tail().includes('UP'));
    expect(supervisor.running).toHaveLength(3);

    const started = Date.now();
    await supervisor.stopAll(800);
    // The stubborn child held out for the grace period, then got SIGKILL.
    expect(Date.now() - started).toBeGreaterThanOrEqual(700);
    expect(stubborn.exit).toEqual({ code: null, signal: 'SIGKILL' });
    expect(plain.exit).toEqual({ code: null, signal: 'SIGTERM' });
    expect(supervisor.running).toHaveLength(0);
    for (const pid of [parent.pid!, stubborn.pid!, plain.pid!, grandchild!]) {
      expect(processAlive(pid)).toBe(false);
    }
  });

  it('keeps the last lines of output and writes them to the log file', async () => {
    const supervisor = new ProcessSupervisor();
    const logFile = join(mkdtempSync(join(tmpdir(), 'demo-log-')), 'x.log');
    const child = supervisor.start({
      name: 'talker',
      command: process.execPath,
      args: ['-e', "console.log('one'); console.error('two'); process.exit(4)"],
      logFile,
    });
    expect(await child.exited).toEqual({ code: 4, signal: null });
    await eventually(() => child.tail().includes('two'));
    expect(child.tail().split('\n').sort()).toEqual(['one', 'two']);
    await eventually(() => readFileSync(logFile, 'utf8').includes('two'));
  });

  const runParent = (
    grace: number,
  ): Promise<{
    child: ReturnType<typeof spawn>;
    pids: number[];
    output: () => string;
    exit: Promise<number | null>;
  }> =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', PARENT, '--grace', String(grace)], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      const exit = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const match = /PIDS (\[.*\])/.exec(out);
        if (match) {
          resolve({
            child,
            pids: [child.pid!, ...(JSON.parse(match[1]) as number[])],
            output: () => out,
            exit,
          });
        }
      });
      void exit.then((code) => reject(new Error(`parent exited early (${code}): ${out}`)));
    });

  it('on Ctrl-C stops every child and grandchild, then exits 130', async () => {
    const run = await runParent(1000);
    run.child.kill('SIGINT');
    // npm run forwards the terminal's SIGINT too: a second one at once is the same Ctrl-C.
    setTimeout(() => run.child.kill('SIGINT'), 10);
    expect(await run.exit).toBe(130);
    expect(run.output()).toContain('GRACEFUL');
    expect(run.output()).not.toContain('FORCED');
    for (const pid of run.pids) expect(processAlive(pid)).toBe(false);
  });

  it('on a second Ctrl-C kills everything at once', async () => {
    const run = await runParent(60_000);
    run.child.kill('SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const forcedAt = Date.now();
    run.child.kill('SIGINT');
    expect(await run.exit).toBe(130);
    expect(Date.now() - forcedAt).toBeLessThan(5000);
    expect(run.output()).toContain('FORCED');
    await eventually(() => run.pids.every((pid) => !processAlive(pid)), 5000);
  });
});

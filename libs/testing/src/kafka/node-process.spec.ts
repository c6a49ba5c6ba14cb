import { spawn } from 'node:child_process';
import { processState, signalGroup, terminateGroup, waitUntilGone } from './node-process';

describe('broker processes: running, frozen, gone', () => {
  const sleeper = () => {
    const child = spawn('sleep', ['60'], { detached: true, stdio: 'ignore' });
    return child.pid!;
  };
  const until = async (pid: number, state: string) => {
    for (let i = 0; i < 200 && processState(pid) !== state; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    return processState(pid);
  };

  it('tells a frozen process (SIGSTOP) from a running and a killed one', async () => {
    const pid = sleeper();
    expect(processState(pid)).toBe('running');
    signalGroup(pid, 'SIGSTOP');
    expect(await until(pid, 'stopped')).toBe('stopped');
    signalGroup(pid, 'SIGCONT');
    expect(await until(pid, 'running')).toBe('running');
    signalGroup(pid, 'SIGKILL');
    expect(await waitUntilGone(pid, 5_000)).toBe(true);
    expect(processState(pid)).toBe('gone');
  });

  it('terminates a frozen process: let run, then SIGTERM', async () => {
    const pid = sleeper();
    signalGroup(pid, 'SIGSTOP');
    expect(await until(pid, 'stopped')).toBe('stopped');
    await terminateGroup(pid, 5_000);
    expect(processState(pid)).toBe('gone');
  });

  it('calls a pid that never existed gone', () => {
    expect(processState(2 ** 22 + 17)).toBe('gone');
    expect(() => signalGroup(2 ** 22 + 17, 'SIGTERM')).not.toThrow();
  });
});

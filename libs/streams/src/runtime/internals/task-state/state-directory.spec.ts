import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { StateDirectoryLockedError } from '../../../errors/state-directory-locked.error';
import { TaskId } from '../../../processor/task-id';
import { PROCESS_FILE_NAME, StateDirectory } from './state-directory';

describe('StateDirectory', () => {
  let root: string;
  const opened: StateDirectory[] = [];

  function stateDirectory(cleanupDelayMs?: number): StateDirectory {
    const dir = new StateDirectory({ stateDir: root, applicationId: 'app', cleanupDelayMs });
    opened.push(dir);
    return dir;
  }

  beforeEach(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'state-dir-'));
  });
  afterEach(async () => {
    for (const dir of opened.splice(0)) await dir.unlock();
    await fs.rm(root, { recursive: true, force: true });
  });

  it('lays out <stateDir>/<applicationId>/<taskId>/rocksdb/<store>', () => {
    const dir = stateDirectory();
    const task = new TaskId(0, 3);
    expect(dir.applicationDir).toBe(path.join(root, 'app'));
    expect(dir.taskDirPath(task)).toBe(path.join(root, 'app', '0_3'));
    expect(dir.storeDirPath(task, 'stats-store')).toBe(
      path.join(root, 'app', '0_3', 'rocksdb', 'stats-store'),
    );
    expect(dir.checkpointFilePath(task)).toBe(path.join(root, 'app', '0_3', '.checkpoint'));
  });

  it('locks the application dir with this pid and releases it', async () => {
    const dir = stateDirectory();
    await dir.lock();
    await dir.lock(); // idempotent
    const content = JSON.parse(await fs.readFile(path.join(root, 'app', '.lock'), 'utf8'));
    expect(content.pid).toBe(process.pid);
    await dir.unlock();
    await expect(fs.access(path.join(root, 'app', '.lock'))).rejects.toThrow();
  });

  it('refuses a second instance in the same process with a typed error naming the pid', async () => {
    await stateDirectory().lock();
    const error = await stateDirectory()
      .lock()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StateDirectoryLockedError);
    expect((error as StateDirectoryLockedError).code).toBe('STATE_DIR_LOCKED');
    expect((error as StateDirectoryLockedError).sameProcess).toBe(true);
    expect((error as Error).message).toContain(String(process.pid));
  });

  it('refuses when another live process holds the lock, naming its pid', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      await fs.mkdir(path.join(root, 'app'), { recursive: true });
      await fs.writeFile(
        path.join(root, 'app', '.lock'),
        JSON.stringify({ pid: child.pid, token: 'other' }),
      );
      const error = await stateDirectory()
        .lock()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StateDirectoryLockedError);
      expect((error as StateDirectoryLockedError).holderPid).toBe(child.pid);
      expect((error as Error).message).toContain(`process ${child.pid}`);
    } finally {
      child.kill();
    }
  });

  it('takes over a stale lock from a dead pid', async () => {
    const child = spawn(process.execPath, ['-e', '0']);
    const deadPid = child.pid as number;
    await new Promise((resolve) => child.on('exit', resolve));
    await fs.mkdir(path.join(root, 'app'), { recursive: true });
    await fs.writeFile(
      path.join(root, 'app', '.lock'),
      JSON.stringify({ pid: deadPid, token: 'dead' }),
    );
    const dir = stateDirectory();
    await dir.lock();
    expect(dir.isLocked()).toBe(true);
  });

  it('takes over a lock from an earlier run with this same pid (containers)', async () => {
    await fs.mkdir(path.join(root, 'app'), { recursive: true });
    await fs.writeFile(
      path.join(root, 'app', '.lock'),
      JSON.stringify({ pid: process.pid, token: 'earlier-run' }),
    );
    await stateDirectory().lock();
  });

  it('keeps the process id across instances (restarts)', async () => {
    const first = await stateDirectory().processId();
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(await stateDirectory().processId()).toBe(first);
    await fs.writeFile(path.join(root, 'app', PROCESS_FILE_NAME), 'garbage');
    expect(await stateDirectory().processId()).not.toBe(first);
  });

  it('lists task directories only, ordered by task id', async () => {
    const dir = stateDirectory();
    await dir.taskDir(new TaskId(1, 0));
    await dir.taskDir(new TaskId(0, 10));
    await dir.taskDir(new TaskId(0, 2));
    await fs.mkdir(path.join(dir.applicationDir, 'not-a-task'));
    await fs.writeFile(path.join(dir.applicationDir, '0_5'), 'a file');
    expect((await dir.listTaskDirs()).map((d) => d.taskId.toString())).toEqual([
      '0_2',
      '0_10',
      '1_0',
    ]);
  });

  it('removes unassigned task dirs only after the cleanup delay', async () => {
    const dir = stateDirectory(1000);
    const assigned = new TaskId(0, 0);
    const released = new TaskId(0, 1);
    await dir.taskDir(assigned);
    await dir.taskDir(released);
    await dir.touchTaskDir(released);
    const now = Date.now();
    expect(await dir.cleanRemovedTasks([assigned], now)).toEqual([]);
    const removed = await dir.cleanRemovedTasks([assigned], now + 5000);
    expect(removed.map(String)).toEqual(['0_1']);
    expect((await dir.listTaskDirs()).map((d) => d.taskId.toString())).toEqual(['0_0']);
  });

  it('cleanUp wipes task dirs and the global stores, and keeps the process id', async () => {
    const dir = stateDirectory();
    const processId = await dir.processId();
    await dir.taskDir(new TaskId(0, 0));
    const global = path.join(dir.applicationDir, 'global');
    await fs.mkdir(path.join(global, 'rocksdb'), { recursive: true });
    await dir.cleanUp();
    expect(await dir.listTaskDirs()).toEqual([]);
    expect(await fs.stat(global).catch(() => undefined)).toBeUndefined();
    expect(await dir.processId()).toBe(processId);
    expect(dir.isLocked()).toBe(false);
  });
});

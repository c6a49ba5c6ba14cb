import { randomUUID } from 'node:crypto';
import { promises as fs, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { StateDirectoryLockedError } from '../../../errors/state-directory-locked.error';
import { TaskId } from '../../../processor/task-id';
import { CHECKPOINT_FILE_NAME } from '../../../state/internals/offset-checkpoint';

/** Kafka Streams' default `state.cleanup.delay.ms`: 10 minutes. */
export const DEFAULT_STATE_CLEANUP_DELAY_MS = 600_000;
/** The lock file of an application directory. */
export const LOCK_FILE_NAME = '.lock';
/** The file holding the process id across restarts (Kafka Streams' name). */
export const PROCESS_FILE_NAME = 'kafka-streams-process-metadata';
/** The sub-directory of a task directory holding its persistent stores. */
export const ROCKSDB_DIR_NAME = 'rocksdb';

/** Options of a {@link StateDirectory}. */
export interface StateDirectoryOptions {
  /** `state.dir`: the root of every application's state on this machine. */
  readonly stateDir: string;
  readonly applicationId: string;
  /** `state.cleanup.delay.ms`; default {@link DEFAULT_STATE_CLEANUP_DELAY_MS}. */
  readonly cleanupDelayMs?: number;
}

/** A task directory found on disk. */
export interface TaskDirectory {
  readonly taskId: TaskId;
  readonly path: string;
  /** The directory's modification time (touched when its task is released). */
  readonly lastModifiedMs: number;
}

interface LockContent {
  pid: number;
  /** The holder's process start time in clock ticks since boot (Linux), against pid reuse. */
  startTicks?: string;
  /** Random per holder, so that a holder recognises its own lock. */
  token: string;
}

/** Lock files held by instances in this process, by absolute path. */
const heldInThisProcess = new Set<string>();

/**
 * The on-disk home of one application's state, in Kafka Streams' layout:
 *
 * ```
 * <stateDir>/<applicationId>/
 *   .lock                               held by one live process at a time
 *   kafka-streams-process-metadata     {"processId": "<uuid>"}, survives restarts
 *   0_3/                               one directory per task
 *     .checkpoint
 *     rocksdb/<store>/                 persistent key-value stores
 *     <store>/<store>.<segmentStart>   window and session segments
 * ```
 *
 * Call {@link lock} before anything else and {@link unlock} on shutdown.
 */
export class StateDirectory {
  readonly applicationDir: string;
  readonly cleanupDelayMs: number;
  private readonly lockFile: string;
  private lockToken: string | undefined;

  constructor(options: StateDirectoryOptions) {
    if (!options.applicationId || /[/\\]/.test(options.applicationId)) {
      throw new RangeError(
        `invalid applicationId for a directory name: '${options.applicationId}'`,
      );
    }
    this.applicationDir = path.resolve(options.stateDir, options.applicationId);
    this.cleanupDelayMs = options.cleanupDelayMs ?? DEFAULT_STATE_CLEANUP_DELAY_MS;
    this.lockFile = path.join(this.applicationDir, LOCK_FILE_NAME);
  }

  /** Whether this instance holds the application directory's lock. */
  isLocked(): boolean {
    return this.lockToken !== undefined;
  }

  /**
   * Creates the application directory if needed and takes its `.lock`. A lock left by a dead
   * process (or by an earlier run that had this same pid, as in containers) is taken over.
   * Idempotent while held.
   *
   * @throws StateDirectoryLockedError when a live process, or another instance in this
   *   process, holds the lock: use a different state dir or stop the holder.
   */
  async lock(): Promise<void> {
    if (this.lockToken) return;
    if (heldInThisProcess.has(this.lockFile)) {
      throw new StateDirectoryLockedError(this.applicationDir, process.pid, true);
    }
    await fs.mkdir(this.applicationDir, { recursive: true });
    const mine: LockContent = {
      pid: process.pid,
      startTicks: processStartTicks(process.pid),
      token: randomUUID(),
    };
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await fs.writeFile(this.lockFile, JSON.stringify(mine), { flag: 'wx' });
        this.lockToken = mine.token;
        heldInThisProcess.add(this.lockFile);
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = await this.readLock();
      if (holder && isAlive(holder) && holder.pid !== process.pid) {
        throw new StateDirectoryLockedError(this.applicationDir, holder.pid, false);
      }
      // Stale: a dead holder, an unreadable file, or an earlier run with our own pid (no
      // instance in this process holds it, checked above). Take it over.
      await fs.rm(this.lockFile, { force: true });
    }
    throw new StateDirectoryLockedError(
      this.applicationDir,
      (await this.readLock())?.pid ?? -1,
      false,
    );
  }

  /** Releases the lock if this instance holds it. Idempotent. */
  async unlock(): Promise<void> {
    if (!this.lockToken) return;
    const holder = await this.readLock();
    if (holder?.token === this.lockToken) await fs.rm(this.lockFile, { force: true });
    heldInThisProcess.delete(this.lockFile);
    this.lockToken = undefined;
  }

  /**
   * The process id: read from `kafka-streams-process-metadata`, or created (a random UUID)
   * and written when absent or unreadable. Stable across restarts of this state directory.
   */
  async processId(): Promise<string> {
    const file = path.join(this.applicationDir, PROCESS_FILE_NAME);
    try {
      const parsed = JSON.parse(await fs.readFile(file, 'utf8')) as { processId?: unknown };
      if (typeof parsed.processId === 'string' && /^[0-9a-f-]{36}$/i.test(parsed.processId)) {
        return parsed.processId;
      }
    } catch {
      // missing or unreadable: write a new one below
    }
    await fs.mkdir(this.applicationDir, { recursive: true });
    const processId = randomUUID();
    const tmp = `${file}.tmp`;
    await fs.writeFile(tmp, JSON.stringify({ processId }));
    await fs.rename(tmp, file);
    return processId;
  }

  /** `<applicationDir>/<taskId>` (not created). */
  taskDirPath(taskId: TaskId): string {
    return path.join(this.applicationDir, taskId.toString());
  }

  /** The task directory, created if needed. */
  async taskDir(taskId: TaskId): Promise<string> {
    const dir = this.taskDirPath(taskId);
    await fs.mkdir(dir, { recursive: true });
    return dir;
  }

  /** `<taskDir>/rocksdb/<storeName>`: a persistent key-value store's directory (not created). */
  storeDirPath(taskId: TaskId, storeName: string): string {
    return path.join(this.taskDirPath(taskId), ROCKSDB_DIR_NAME, storeName);
  }

  /** `<taskDir>/<storeName>`: a segmented (window/session) store's directory (not created). */
  segmentedStoreDirPath(taskId: TaskId, storeName: string): string {
    return path.join(this.taskDirPath(taskId), storeName);
  }

  /** `<taskDir>/.checkpoint`. */
  checkpointFilePath(taskId: TaskId): string {
    return path.join(this.taskDirPath(taskId), CHECKPOINT_FILE_NAME);
  }

  /** Every task directory of the application, ordered by task id. Other entries are ignored. */
  async listTaskDirs(): Promise<TaskDirectory[]> {
    let names: string[];
    try {
      names = await fs.readdir(this.applicationDir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const result: TaskDirectory[] = [];
    for (const name of names) {
      const taskId = TaskId.tryParse(name);
      if (!taskId) continue;
      const dir = path.join(this.applicationDir, name);
      const stat = await fs.stat(dir).catch(() => undefined);
      if (stat?.isDirectory()) result.push({ taskId, path: dir, lastModifiedMs: stat.mtimeMs });
    }
    return result.sort((a, b) => a.taskId.compareTo(b.taskId));
  }

  /**
   * Marks a task directory as released now (its modification time), so that
   * {@link cleanRemovedTasks} keeps it for the whole cleanup delay after the task moved away.
   */
  async touchTaskDir(taskId: TaskId): Promise<void> {
    const now = new Date();
    await fs.utimes(this.taskDirPath(taskId), now, now).catch(() => undefined);
  }

  /**
   * Removes the directories of tasks that are not in `assigned` and were released longer than
   * `state.cleanup.delay.ms` ago. Returns the removed task ids.
   *
   * @throws the file system's error for a directory that cannot be removed; the next cleanup
   *   tries again, so log it and continue.
   */
  async cleanRemovedTasks(assigned: Iterable<TaskId>, now = Date.now()): Promise<TaskId[]> {
    const keep = new Set<string>();
    for (const taskId of assigned) keep.add(taskId.toString());
    const removed: TaskId[] = [];
    for (const dir of await this.listTaskDirs()) {
      if (keep.has(dir.taskId.toString())) continue;
      if (now - dir.lastModifiedMs <= this.cleanupDelayMs) continue;
      await fs.rm(dir.path, { recursive: true, force: true });
      removed.push(dir.taskId);
    }
    return removed;
  }

  /**
   * Runs {@link cleanRemovedTasks} periodically (every `state.cleanup.delay.ms`, between 1 s and
   * 1 min), as Kafka Streams' state cleaner does; `assigned` gives the tasks to keep (active
   * and standby) at each run. Failures are logged and retried at the next run. Returns a
   * function that stops the cleaner.
   */
  scheduleCleanup(
    assigned: () => Iterable<TaskId>,
    logger: { info(message: string): void; warn(message: string): void },
  ): () => void {
    const every = Math.max(1000, Math.min(this.cleanupDelayMs, 60_000));
    const timer = setInterval(() => {
      this.cleanRemovedTasks(assigned())
        .then((removed) => {
          if (removed.length > 0)
            logger.info(`removed state of tasks ${removed.join(', ')} (no longer assigned)`);
        })
        .catch((error: unknown) => logger.warn(`state cleanup failed: ${String(error)}`));
    }, every);
    timer.unref();
    return () => clearInterval(timer);
  }

  /** Deletes one task's directory and everything in it (wiping its state). */
  async wipeTask(taskId: TaskId): Promise<void> {
    await fs.rm(this.taskDirPath(taskId), { recursive: true, force: true });
  }

  /**
   * Deletes every task directory and the global stores' directory, `global`
   * (`KafkaStreams.cleanUp()`); keeps the lock and process id.
   *
   * @throws StateDirectoryLockedError when this instance cannot take the lock.
   */
  async cleanUp(): Promise<void> {
    const wasLocked = this.isLocked();
    await this.lock();
    try {
      for (const dir of await this.listTaskDirs()) {
        await fs.rm(dir.path, { recursive: true, force: true });
      }
      await fs.rm(path.join(this.applicationDir, 'global'), { recursive: true, force: true });
    } finally {
      if (!wasLocked) await this.unlock();
    }
  }

  private async readLock(): Promise<LockContent | undefined> {
    try {
      const parsed = JSON.parse(await fs.readFile(this.lockFile, 'utf8')) as Partial<LockContent>;
      if (typeof parsed.pid !== 'number' || typeof parsed.token !== 'string') return undefined;
      return { pid: parsed.pid, startTicks: parsed.startTicks, token: parsed.token };
    } catch {
      return undefined;
    }
  }
}

/** Whether the lock holder still runs (and is the same process, where the OS tells). */
function isAlive(holder: LockContent): boolean {
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (holder.startTicks === undefined) return true;
  const current = processStartTicks(holder.pid);
  return current === undefined || current === holder.startTicks;
}

/** A process's start time (clock ticks since boot) from `/proc/<pid>/stat`, Linux only. */
function processStartTicks(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces: parse after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19];
  } catch {
    return undefined;
  }
}

import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { RecordCollector } from '../src/processor/internals/record-collector';
import { TaskId } from '../src/processor/task-id';
import { StateDirectory } from '../src/runtime/internals/task-state/state-directory';

/** The task of the task-state specs, and the changelog partition of its store `s`. */
export const TASK = new TaskId(0, 2);
export const CHANGELOG = 'app-s-changelog';

/** The task's directory in a fresh state directory (see {@link useTaskDirectory}). */
export interface TaskDirectory {
  /** The state directory of application `app`, its task directory made. */
  readonly stateDirectory: StateDirectory;
  /** The task's checkpoint file as text (rejects with ENOENT when there is none). */
  checkpointText(): Promise<string>;
  /** Writes a checkpoint of `CHANGELOG` partition 2 at `offset`. */
  writeCheckpoint(offset: number): Promise<void>;
}

/**
 * Makes {@link TASK}'s directory in a state directory under the system's temporary directory
 * before each test of the calling `describe`, and removes it after.
 */
export function useTaskDirectory(prefix: string): TaskDirectory {
  let root = '';
  let stateDirectory: StateDirectory | undefined;
  beforeEach(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
    stateDirectory = new StateDirectory({ stateDir: root, applicationId: 'app' });
    await stateDirectory.taskDir(TASK);
  });
  afterEach(() => fs.rm(root, { recursive: true, force: true }));
  const checkpointFile = () => stateDirectory!.checkpointFilePath(TASK);
  return {
    get stateDirectory() {
      return stateDirectory!;
    },
    checkpointText: () => fs.readFile(checkpointFile(), 'utf8'),
    writeCheckpoint: (offset) => fs.writeFile(checkpointFile(), `0\n1\n${CHANGELOG} 2 ${offset}\n`),
  };
}

/** Sends `n` changelog records of store `s` (tombstones of key `k`) through `collector`. */
export function sendChangelogRecords(collector: RecordCollector, n = 1): void {
  for (let i = 0; i < n; i++) {
    collector.send({
      topic: CHANGELOG,
      partition: 2,
      key: Buffer.from('k'),
      value: null,
      timestamp: 0,
    });
  }
}

import { accessSync, constants, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Where both drivers keep their state: under `/dev/shm` (memory) where the machine has it, else
 * the OS temp directory. Both drivers flush their stores after every record; on a disk, the
 * fsyncs of those flushes are most of the suite's time.
 */
export function scratchDir(): string {
  const base = isWritableDirectory('/dev/shm') ? '/dev/shm' : tmpdir();
  return join(base, 'nest-streams-differential');
}

function isWritableDirectory(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

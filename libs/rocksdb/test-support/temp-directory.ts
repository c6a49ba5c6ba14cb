import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from '@jest/globals';

/**
 * A fresh directory under `os.tmpdir()` for each test of the calling `describe` (or file),
 * removed with everything in it after the test. Returns the current test's directory; throws
 * when called outside a test.
 */
export function useTempDirectory(prefix: string): () => string {
  let directory: string | undefined;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), prefix));
  });
  afterEach(() => {
    if (directory !== undefined) {
      rmSync(directory, { recursive: true, force: true });
      directory = undefined;
    }
  });
  return () => {
    if (directory === undefined) {
      throw new Error('useTempDirectory: the directory exists only while a test runs');
    }
    return directory;
  };
}

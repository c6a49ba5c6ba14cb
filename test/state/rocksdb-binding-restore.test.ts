import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

// The `rocksdb` binding (asynchronous reads only) runs in a child process: it cannot share a
// process with `@nxtedition/rocksdb`, which other suites load into the same Jest worker.
describe('restore on the rocksdb binding (real broker, own process)', () => {
  it('prefetches on the hot path, restores identical contents, then only the tail', async () => {
    const script = path.join(__dirname, 'rocksdb-binding-restore.script.ts');
    const { stdout } = await run(process.execPath, ['--import', 'tsx', script], {
      env: process.env,
      timeout: 110_000,
    });
    const result = JSON.parse(stdout.trim().split('\n').pop() as string);
    expect(result).toEqual({
      writtenMatchesStore: true,
      restoredMatches: true,
      endOffset: 610,
      freshRestored: 600,
      tailRestored: 10,
      entriesAfterTail: 260,
      entriesWritten: 250,
    });
  });
});

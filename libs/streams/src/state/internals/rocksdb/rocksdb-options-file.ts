import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The `key=value` lines of the newest RocksDB OPTIONS file in a database directory: what RocksDB
 * actually opened with (for tests of the engines' option handling). Throws when there is none.
 */
export function writtenRocksDBOptions(directory: string): Map<string, string> {
  const file = readdirSync(directory)
    .filter((name) => name.startsWith('OPTIONS-'))
    .sort()
    .pop();
  if (file === undefined) {
    throw new Error(`no RocksDB OPTIONS file in ${directory}`);
  }
  const lines = readFileSync(join(directory, file), 'utf8').split('\n');
  return new Map(
    lines
      .map((line) => line.trim().split('='))
      .filter((parts): parts is [string, string] => parts.length === 2),
  );
}

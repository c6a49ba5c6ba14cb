import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/** Writes a layout as indented JSON (a broker's or a cluster's, after its storage was formatted). */
export function writeLayoutFile(file: string, layout: object): void {
  writeFileSync(file, `${JSON.stringify(layout, null, 2)}\n`);
}

/**
 * The layout in `file` as parsed, for the caller to check field by field; `undefined` when the
 * file is missing or not JSON (the caller then starts afresh).
 */
export function readLayoutFile<T>(file: string): Partial<T> | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Partial<T>;
  } catch {
    return undefined;
  }
}

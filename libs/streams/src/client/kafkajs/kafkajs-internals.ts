import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** Loads a module of the kafkajs installation by its path inside the package (`./src/...`). */
export type KafkajsRequire = <T>(path: string) => T;

/** Where the kafkajs this engine loads is installed, and its version. */
export interface KafkajsInstallation {
  /** The package's directory. */
  readonly directory: string;
  readonly version: string;
  /** Resolves a module path inside the package to its file (what `require.cache` is keyed by). */
  resolve(path: string): string;
  load: KafkajsRequire;
}

/**
 * The kafkajs installation `require('kafkajs')` loads from this package's location.
 *
 * @throws Error (from `require.resolve`) when kafkajs cannot be found: it is a dependency of
 *   @nest-streams/streams, so reinstall the package.
 */
export function locateKafkajs(directory?: string): KafkajsInstallation {
  const root = directory ?? dirname(require.resolve('kafkajs/package.json'));
  const packageJson = join(root, 'package.json');
  const { version } = JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string };
  const kafkajsRequire = createRequire(packageJson);
  return {
    directory: root,
    version,
    resolve: (path) => kafkajsRequire.resolve(path),
    load: <T>(path: string) => kafkajsRequire(path) as T,
  };
}

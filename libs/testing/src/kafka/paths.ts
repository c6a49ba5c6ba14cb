import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** Files whose directory is a project's root: npm's, Yarn's and pnpm's lock files. */
const LOCK_FILES = ['package-lock.json', 'yarn.lock', 'pnpm-lock.yaml'];

/**
 * The root of the project the broker tool runs for: the nearest directory up from `from` that
 * holds a lock file (npm, Yarn, pnpm; in this repository, its root), else `from` itself.
 */
export function projectRoot(from: string = process.cwd()): string {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    if (LOCK_FILES.some((file) => existsSync(join(dir, file)))) return dir;
    if (dirname(dir) === dir) return resolve(from);
  }
}

/**
 * Everything the local broker writes: data, logs, its pid and address. `NEST_STREAMS_KAFKA_HOME`
 * when set, else `.kafka/` in the {@link projectRoot} (git-ignore it).
 */
export const KAFKA_HOME = process.env.NEST_STREAMS_KAFKA_HOME ?? join(projectRoot(), '.kafka');
/** The pom and the log configuration, shipped with the package (src/kafka or dist/kafka → assets/kafka). */
const ASSETS = join(__dirname, '..', '..', 'assets', 'kafka');
export const POM_PATH = join(ASSETS, 'pom.xml');
export const LOG4J_CONFIG = join(ASSETS, 'log4j2.properties');
export const STATE_FILE = join(KAFKA_HOME, 'broker.json');
export const DATA_DIR = join(KAFKA_HOME, 'data');
export const LOGS_DIR = join(KAFKA_HOME, 'logs');
export const CONSOLE_LOG = join(LOGS_DIR, 'console.log');
export const SERVER_LOG = join(LOGS_DIR, 'server.log');

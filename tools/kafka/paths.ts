import { join, resolve } from 'node:path';

/** The repository root (tools/kafka/../..). */
export const REPO_ROOT = resolve(__dirname, '..', '..');
/** Everything the local broker writes: data, logs, its pid and address. Git-ignored. */
export const KAFKA_HOME = process.env.NEST_STREAMS_KAFKA_HOME ?? join(REPO_ROOT, '.kafka');
export const POM_PATH = join(__dirname, 'pom.xml');
export const LOG4J_CONFIG = join(__dirname, 'log4j2.properties');
export const STATE_FILE = join(KAFKA_HOME, 'broker.json');
export const DATA_DIR = join(KAFKA_HOME, 'data');
export const LOGS_DIR = join(KAFKA_HOME, 'logs');
export const CONSOLE_LOG = join(LOGS_DIR, 'console.log');
export const SERVER_LOG = join(LOGS_DIR, 'server.log');

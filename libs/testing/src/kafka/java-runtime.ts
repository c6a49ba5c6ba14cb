import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BrokerToolError } from './broker-error';

/** Kafka 4.x brokers need Java 17 or newer. */
const MIN_JAVA = 17;

/**
 * Finds a Java 17+ executable: `$JAVA_HOME/bin/java` when set, else `java` on the PATH.
 * Throws a {@link BrokerToolError} naming what to install when none is usable.
 */
export function findJava(): { java: string; version: number } {
  const candidates = [
    process.env.JAVA_HOME ? join(process.env.JAVA_HOME, 'bin', 'java') : undefined,
    'java',
  ].filter((c): c is string => c !== undefined && (c === 'java' || existsSync(c)));
  for (const java of candidates) {
    const out = spawnSync(java, ['-version'], { encoding: 'utf8' });
    if (out.error || out.status !== 0) continue;
    const version = parseJavaVersion(`${out.stderr}${out.stdout}`);
    if (version !== undefined && version >= MIN_JAVA) return { java, version };
    if (version !== undefined) {
      throw new BrokerToolError(
        `Java ${version} found at ${java}, but Kafka 4 needs Java ${MIN_JAVA}+: install a JDK ${MIN_JAVA}+ or set JAVA_HOME to one.`,
      );
    }
  }
  throw new BrokerToolError(
    `Java not found: install a JDK ${MIN_JAVA}+ (e.g. apt-get install openjdk-17-jdk-headless) or set JAVA_HOME.`,
  );
}

/** Reads the major version from `java -version` output ("17.0.15", "1.8.0_402", "25"). */
export function parseJavaVersion(output: string): number | undefined {
  const match = /version "(\d+)(?:\.(\d+))?/.exec(output);
  if (!match) return undefined;
  const major = Number(match[1]);
  return major === 1 && match[2] !== undefined ? Number(match[2]) : major;
}

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BrokerToolError } from './broker-error';
import { KAFKA_HOME, POM_PATH } from './paths';

/** The Kafka version pinned in assets/kafka/pom.xml. */
export function pinnedKafkaVersion(): string {
  const match = /<kafka\.version>([^<]+)<\/kafka\.version>/.exec(readFileSync(POM_PATH, 'utf8'));
  if (!match) throw new BrokerToolError(`No <kafka.version> in ${POM_PATH}.`);
  return match[1];
}

/**
 * Resolves the broker's runtime classpath with Maven into the local Maven repository and
 * returns it. The result is cached under .kafka/ per pom content, so later runs cost nothing
 * while every jar is still present.
 *
 * Throws a {@link BrokerToolError} when Maven is missing or cannot resolve the artifacts
 * (no access to Maven Central, a version that does not exist).
 */
export function resolveBrokerClasspath(log: (line: string) => void): string {
  const pom = readFileSync(POM_PATH);
  const digest = createHash('sha256').update(pom).digest('hex').slice(0, 16);
  mkdirSync(KAFKA_HOME, { recursive: true });
  const cacheFile = join(KAFKA_HOME, `classpath-${digest}.txt`);
  if (existsSync(cacheFile)) {
    const cached = readFileSync(cacheFile, 'utf8').trim();
    if (cached && cached.split(':').every((jar) => existsSync(jar))) return cached;
  }

  const mvn = spawnSync('mvn', ['-v'], { encoding: 'utf8' });
  if (mvn.error || mvn.status !== 0) {
    throw new BrokerToolError(
      'Maven not found: install Maven 3.6+ (e.g. apt-get install maven) with access to Maven Central.',
    );
  }
  log(
    `Resolving Apache Kafka ${pinnedKafkaVersion()} and its dependencies with Maven (first run downloads about 40 MB)...`,
  );
  const started = Date.now();
  const result = spawnSync(
    'mvn',
    [
      '-B',
      '-q',
      '-f',
      POM_PATH,
      'dependency:build-classpath',
      '-Dmdep.includeScope=runtime',
      `-Dmdep.outputFile=${cacheFile}`,
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  if (result.status !== 0 || !existsSync(cacheFile)) {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`
      .trim()
      .split('\n')
      .slice(-15)
      .join('\n');
    throw new BrokerToolError(
      `Maven could not resolve org.apache.kafka:kafka_2.13:${pinnedKafkaVersion()} (is Maven Central reachable?).`,
      output,
    );
  }
  log(`Resolved in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  return readFileSync(cacheFile, 'utf8').trim();
}

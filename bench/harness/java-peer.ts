import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { findJava } from '@nest-streams/testing/kafka';

/** The Maven project of the Java Kafka Streams peer. */
export const JAVA_PEER_DIR = resolve(__dirname, '..', 'peers', 'kafka-streams-java');
const MAIN_CLASS = 'dev.neststreams.bench.BenchPeer';

/** How to start the built peer: `java` and the arguments before the peer's own. */
export interface JavaPeerCommand {
  readonly java: string;
  readonly baseArgs: readonly string[];
}

/**
 * Builds the Java peer with Maven (`compile` and `dependency:build-classpath`) unless the
 * build is up to date: the digest of its pom and sources is kept in `target/build-stamp.txt`,
 * and every jar of the cached classpath must still exist. Returns how to run it.
 *
 * @throws Error with Maven's output when the build fails (no Maven, Maven Central unreachable,
 *   a compile error).
 */
export function buildJavaPeer(log: (line: string) => void): JavaPeerCommand {
  const { java } = findJava();
  const target = join(JAVA_PEER_DIR, 'target');
  const classpathFile = join(target, 'classpath.txt');
  const stampFile = join(target, 'build-stamp.txt');
  const stamp = sourceDigest();
  const upToDate =
    existsSync(stampFile) &&
    readFileSync(stampFile, 'utf8') === stamp &&
    existsSync(classpathFile) &&
    readFileSync(classpathFile, 'utf8')
      .trim()
      .split(':')
      .every((jar) => existsSync(jar));
  if (!upToDate) {
    log('building the Java Kafka Streams peer with Maven...');
    const started = Date.now();
    const build = spawnSync(
      'mvn',
      [
        '-q',
        '-B',
        '-f',
        join(JAVA_PEER_DIR, 'pom.xml'),
        'compile',
        'dependency:build-classpath',
        `-Dmdep.outputFile=${classpathFile}`,
      ],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    if (build.error || build.status !== 0) {
      const output = `${build.stdout ?? ''}${build.stderr ?? ''}`.trim().split('\n').slice(-25);
      throw new Error(
        `building the Java peer failed (${build.error?.message ?? `mvn exit ${build.status}`}):\n${output.join('\n')}`,
      );
    }
    writeFileSync(stampFile, stamp);
    log(`built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  const classpath = `${join(target, 'classes')}:${readFileSync(classpathFile, 'utf8').trim()}`;
  return { java, baseArgs: ['-cp', classpath, MAIN_CLASS] };
}

/** A digest of the pom and every source file (names and contents). */
function sourceDigest(): string {
  const hash = createHash('sha256');
  const files = [join(JAVA_PEER_DIR, 'pom.xml'), ...listFiles(join(JAVA_PEER_DIR, 'src'))];
  for (const file of files.sort()) {
    hash.update(file);
    hash.update(readFileSync(file));
  }
  return hash.digest('hex');
}

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findJava } from '@nest-streams/testing/kafka';

/** How to run a built Maven project's main class: `java` and the arguments before its own. */
export interface JavaCommand {
  readonly java: string;
  readonly baseArgs: readonly string[];
}

/**
 * Builds the Maven project in `dir` (`compile` and `dependency:build-classpath`) unless its
 * build is up to date: the digest of its pom and sources is kept in `target/build-stamp.txt`,
 * and every jar of the cached classpath must still exist. Returns how to run `mainClass`
 * (`jvmArgs` go before the classpath).
 *
 * @throws Error with Maven's output when the build fails (no Maven, Maven Central unreachable,
 *   a compile error), or when no Java 17+ is found (install one or set JAVA_HOME).
 */
export function buildMavenProject(
  dir: string,
  mainClass: string,
  log: (line: string) => void,
  what = 'the Java project',
  jvmArgs: readonly string[] = [],
): JavaCommand {
  const { java } = findJava();
  const target = join(dir, 'target');
  const classpathFile = join(target, 'classpath.txt');
  const stampFile = join(target, 'build-stamp.txt');
  const stamp = sourceDigest(dir);
  const upToDate =
    existsSync(stampFile) &&
    readFileSync(stampFile, 'utf8') === stamp &&
    existsSync(classpathFile) &&
    readFileSync(classpathFile, 'utf8')
      .trim()
      .split(':')
      .every((jar) => existsSync(jar));
  if (!upToDate) {
    log(`building ${what} with Maven...`);
    const started = Date.now();
    const build = spawnSync(
      'mvn',
      [
        '-q',
        '-B',
        '-f',
        join(dir, 'pom.xml'),
        'compile',
        'dependency:build-classpath',
        `-Dmdep.outputFile=${classpathFile}`,
      ],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    if (build.error || build.status !== 0) {
      const output = `${build.stdout ?? ''}${build.stderr ?? ''}`.trim().split('\n').slice(-25);
      throw new Error(
        `building ${what} failed (${build.error?.message ?? `mvn exit ${build.status}`}):\n${output.join('\n')}`,
      );
    }
    writeFileSync(stampFile, stamp);
    log(`built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  const classpath = `${join(target, 'classes')}:${readFileSync(classpathFile, 'utf8').trim()}`;
  return { java, baseArgs: [...jvmArgs, '-cp', classpath, mainClass] };
}

/** A digest of the pom and every source file (names and contents). */
function sourceDigest(dir: string): string {
  const hash = createHash('sha256');
  const files = [join(dir, 'pom.xml'), ...listFiles(join(dir, 'src'))];
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

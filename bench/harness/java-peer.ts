import { resolve } from 'node:path';
import { buildMavenProject, type JavaCommand } from '../../tools/java/maven-project';

/** The Maven project of the Java Kafka Streams peer. */
export const JAVA_PEER_DIR = resolve(__dirname, '..', 'peers', 'kafka-streams-java');
const MAIN_CLASS = 'dev.neststreams.bench.BenchPeer';

/** How to start the built peer: `java` and the arguments before the peer's own. */
export type JavaPeerCommand = JavaCommand;

/**
 * Builds the Java peer with Maven unless its build is up to date (see `buildMavenProject`).
 * Returns how to run it.
 *
 * @throws Error with Maven's output when the build fails (no Maven, Maven Central unreachable,
 *   a compile error).
 */
export function buildJavaPeer(log: (line: string) => void): JavaPeerCommand {
  return buildMavenProject(JAVA_PEER_DIR, MAIN_CLASS, log, 'the Java Kafka Streams peer');
}

import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BrokerToolError } from './broker-error';
import { findJava } from './java-runtime';
import { pinnedKafkaVersion, resolveBrokerClasspath } from './maven-classpath';
import { LOG4J_CONFIG } from './paths';

/** A Java runtime and the resolved Kafka classpath: what every broker process runs on. */
export interface KafkaJvm {
  java: string;
  classpath: string;
  kafkaVersion: string;
}

/** A node's heap: `-Xms` and `-Xmx`. */
export interface KafkaHeap {
  min: string;
  max: string;
}

/**
 * Finds Java 17+ and resolves the pinned Kafka's classpath (cached per pom).
 *
 * @throws BrokerToolError when Java or Maven is missing or the jars cannot be resolved.
 */
export function kafkaJvm(log: (line: string) => void): KafkaJvm {
  const { java } = findJava();
  const classpath = resolveBrokerClasspath(log);
  return { java, classpath, kafkaVersion: pinnedKafkaVersion() };
}

/** The JVM options of a broker process that logs into `logsDir` (see log4j2.properties). */
export function kafkaJvmArgs(jvm: KafkaJvm, logsDir: string, heap: KafkaHeap): string[] {
  return [
    `-Xms${heap.min}`,
    `-Xmx${heap.max}`,
    '-XX:+UseG1GC',
    '-XX:MaxGCPauseMillis=20',
    '-Djava.awt.headless=true',
    `-Dlog4j2.configurationFile=${LOG4J_CONFIG}`,
    `-Dkafka.logs.dir=${logsDir}`,
    '-cp',
    jvm.classpath,
  ];
}

/**
 * Formats a node's KRaft storage (its log dirs, from `propertiesFile`) for `clusterId`, with
 * `extraArgs` for the storage tool (SCRAM users).
 *
 * @throws BrokerToolError with the tool's last output lines when formatting fails.
 */
export function formatKafkaStorage(
  jvm: KafkaJvm,
  jvmArgs: string[],
  clusterId: string,
  propertiesFile: string,
  extraArgs: string[] = [],
): void {
  const format = spawnSync(
    jvm.java,
    [
      ...jvmArgs,
      'kafka.tools.StorageTool',
      'format',
      // `=` keeps the id one token whatever it starts with.
      `--cluster-id=${clusterId}`,
      '-c',
      propertiesFile,
      ...extraArgs,
    ],
    { encoding: 'utf8' },
  );
  if (format.status !== 0) {
    throw new BrokerToolError(
      'Formatting the KRaft storage failed.',
      `${format.stdout}${format.stderr}`.trim().split('\n').slice(-20).join('\n'),
    );
  }
}

/** A broker process started by {@link spawnKafka}: its pid and whether (how) it exited. */
export interface SpawnedKafka {
  pid: number;
  /** The exit code once it exited (-1 for a signal) while this process watched it; else null. */
  exitCode(): number | null;
}

/**
 * Starts `kafka.Kafka <propertiesFile>` detached (the leader of its own process group, so that
 * a signal reaches the whole JVM), its output appended to `consoleLog`; it outlives this process.
 *
 * @throws BrokerToolError when Java cannot be spawned.
 */
export function spawnKafka(
  jvm: KafkaJvm,
  jvmArgs: string[],
  propertiesFile: string,
  consoleLog: string,
): SpawnedKafka {
  const out = openSync(consoleLog, 'a');
  const child = spawn(jvm.java, [...jvmArgs, 'kafka.Kafka', propertiesFile], {
    detached: true,
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  child.unref();
  if (child.pid === undefined) throw new BrokerToolError(`Could not spawn ${jvm.java}.`);
  let exited: number | null = null;
  child.on('exit', (code) => {
    exited = code ?? -1;
  });
  return { pid: child.pid, exitCode: () => exited };
}

/** The last `lines` of a broker's `server.log` and `console.log` in `logsDir`. */
export function kafkaLogTail(logsDir: string, lines = 30): string {
  return ['server.log', 'console.log']
    .map((name) => join(logsDir, name))
    .filter((file) => existsSync(file))
    .map((file) => readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n'))
    .join('\n---\n');
}

import { spawn } from 'node:child_process';
import { buildJavaPeer, type JavaPeerCommand } from '../../bench/harness/java-peer';
import { OrderStatsInstance } from './order-stats-instance';

/** The name the tests give the Java application where they name the Kafka client. */
export const JAVA_STATS_CLIENT = 'kafka-streams-java';

/** The order-stats settings the Java peer takes, and its arguments for them. */
const ARGUMENTS: Readonly<Record<string, string>> = {
  KAFKA_BROKERS: '--bootstrap-servers',
  APPLICATION_ID: '--application-id',
  INPUT_TOPIC: '--input-topic',
  STATE_DIR: '--state-dir',
  PROCESSING_GUARANTEE: '--guarantee',
  COMMIT_INTERVAL_MS: '--commit-interval-ms',
  NUM_STANDBY_REPLICAS: '--standby-replicas',
  SESSION_TIMEOUT_MS: '--session-timeout-ms',
};

/**
 * One process of the Java Kafka Streams peer's `serve` mode (bench/peers/kafka-streams-java,
 * `ServeMode.java`): the example application's topology and HTTP answers on Java Kafka Streams,
 * started from the example application's environment (the variables of {@link ARGUMENTS}; the
 * others, such as `KAFKA_CLIENT`, mean nothing to it) and advertised as `127.0.0.1:<port>`.
 * The query port is kept for its seat but not used: the Java instances forward over HTTP.
 */
export class JavaStatsInstance extends OrderStatsInstance {
  /** Spawns the peer with `command` (see {@link buildJavaPeer}) on `ports.port`. */
  static launch(
    command: JavaPeerCommand,
    env: Record<string, string>,
    ports: { port: number; queryPort: number },
  ): JavaStatsInstance {
    const args = [...command.baseArgs, '--mode', 'serve'];
    for (const [name, argument] of Object.entries(ARGUMENTS)) {
      if (env[name] !== undefined && env[name] !== '') args.push(argument, env[name]);
    }
    args.push('--http-port', String(ports.port));
    args.push('--application-server', `127.0.0.1:${ports.port}`);
    const child = spawn(command.java, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    return new JavaStatsInstance(ports.port, ports.queryPort, child);
  }
}

let peer: JavaPeerCommand | undefined;

/**
 * How to start Java instances in the seats of a test cluster (`OrderStatsCluster.start`'s
 * `starter`): builds the peer with Maven first, once per process, unless its build is up to
 * date.
 *
 * @throws Error with Maven's output when the peer cannot be built (no Java 17+ or Maven, Maven
 *   Central unreachable, a compile error).
 */
export function javaStatsStarter(
  log: (line: string) => void = () => undefined,
): (
  env: Record<string, string>,
  ports: { port: number; queryPort: number },
) => Promise<OrderStatsInstance> {
  const command = (peer ??= buildJavaPeer(log));
  return (env, ports) => Promise.resolve(JavaStatsInstance.launch(command, env, ports));
}

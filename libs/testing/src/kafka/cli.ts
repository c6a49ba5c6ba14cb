#!/usr/bin/env node
/**
 * `nest-streams-kafka` (the bin of @nest-streams/testing; in this repository `npm run kafka:*`):
 * a local Apache Kafka broker for development and tests, run with Java 17+ from the jars Maven
 * resolves (no Kafka distribution, no Docker), and the topic and produce commands an application
 * needs against it (or against any cluster: `--brokers`, `KAFKA_BROKERS`).
 *
 * - `start` prints `KAFKA_BROKERS=<host:port>` as its only line on stdout (progress goes to
 *   stderr: `export $(nest-streams-kafka start)` sets it); `stop` leaves no process of ours.
 *   `stop --keep-data` then `start --reuse-data` restart it on the same port with the same data.
 *   `start --sasl-ssl <listener.json>` adds a SASL_SSL listener (see sasl-ssl-listener.ts) and
 *   prints `KAFKA_SASL_SSL_BROKERS=<host:port>` first.
 * - `start --nodes 3` starts a cluster of three nodes instead (see cluster.ts), printing
 *   `KAFKA_BROKERS=<h:p,h:p,h:p>`; `node <kill|stop|resume|restart> <id>` does that to one of
 *   its nodes; `stop` stops every node.
 * - `topics create <topic> --partitions <n>` creates a topic (`kafka-topics.sh --create`);
 *   `produce <topic>` sends one record per line of stdin, `<key>:<value>`.
 *
 * Where it keeps its files: see paths.ts (`.kafka/` in the project, or NEST_STREAMS_KAFKA_HOME).
 */
import { bootstrapBrokers } from './bootstrap-brokers';
import { BrokerToolError } from './broker-error';
import { runningBroker, startBroker, stopBroker } from './broker';
import { clusterNodeCommand, runningCluster, startCluster, stopCluster } from './cluster';
import { readClusterState, nodeProcessStates } from './cluster-state';
import { produceLines } from './console-producer';
import { KAFKA_HOME } from './paths';
import { readSaslSslListener } from './sasl-ssl-listener';
import { createTopic } from './topic-commands';

const USAGE = `usage: nest-streams-kafka <command>
  start [--nodes <n>] [--reuse-data] [--sasl-ssl <listener.json>]
  stop [--keep-data]
  status
  node <kill|stop|resume|restart> <node id>
  topics create <topic> [--partitions <n>] [--replication-factor <n>] [--config <name=value>]... [--if-not-exists] [--brokers <host:port,...>]
  produce <topic> [--key-separator <text>] [--brokers <host:port,...>]   (stdin: one <key>:<value> per line)
`;
const NODE_ACTIONS = ['kill', 'stop', 'resume', 'restart'] as const;

/** A command line that does not parse: the usage is printed after its message. */
class UsageError extends Error {}

/** Removes `--name <value>` from `flags`; the value, or undefined when absent. */
function takeOption(flags: string[], name: string): string | undefined {
  const at = flags.indexOf(name);
  if (at < 0) return undefined;
  const value = flags[at + 1];
  if (value === undefined || value.startsWith('--')) throw new UsageError(`${name} needs a value`);
  flags.splice(at, 2);
  return value;
}

/** Removes every `--name <value>` from `flags`; their values. */
function takeRepeated(flags: string[], name: string): string[] {
  const values: string[] = [];
  for (let value = takeOption(flags, name); value !== undefined; value = takeOption(flags, name)) {
    values.push(value);
  }
  return values;
}

/** Removes `--name` from `flags`; whether it was there. */
function takeFlag(flags: string[], name: string): boolean {
  const at = flags.indexOf(name);
  if (at >= 0) flags.splice(at, 1);
  return at >= 0;
}

/** A whole number of at least `min` from `--name`, or undefined when absent. */
function takeCount(flags: string[], name: string, min: number): number | undefined {
  const text = takeOption(flags, name);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) {
    throw new UsageError(`${name} takes a whole number of at least ${min}, got ${text}`);
  }
  return value;
}

/** Refuses what is left of `flags` after a command took its own. */
function noMore(flags: readonly string[]): void {
  if (flags.length > 0) throw new UsageError(`unknown argument ${flags[0]}`);
}

async function main(command: string | undefined, flags: string[]): Promise<number> {
  switch (command) {
    case 'start':
      return start(flags);
    case 'stop': {
      const keepData = takeFlag(flags, '--keep-data');
      noMore(flags);
      const cluster = await stopCluster({ keepData });
      const stopped = cluster || (await stopBroker({ keepData }));
      const what = cluster ? 'Cluster' : 'Broker';
      process.stderr.write(
        stopped ? `[kafka] ${what} stopped.\n` : '[kafka] No broker was running.\n',
      );
      return 0;
    }
    case 'status':
      noMore(flags);
      return status();
    case 'node':
      return nodeCommand(flags);
    case 'topics':
      return topicsCommand(flags);
    case 'produce':
      return produce(flags);
    default:
      throw new UsageError(command ? `unknown command ${command}` : 'no command');
  }
}

async function start(flags: string[]): Promise<number> {
  const saslSslFile = takeOption(flags, '--sasl-ssl');
  const nodes = takeCount(flags, '--nodes', 1);
  const reuseData = takeFlag(flags, '--reuse-data');
  noMore(flags);
  if (nodes !== undefined && saslSslFile !== undefined) {
    throw new UsageError('--sasl-ssl is for the single-node broker, not with --nodes');
  }
  if (nodes !== undefined) {
    const cluster = await startCluster({ nodes, reuseData });
    process.stdout.write(`KAFKA_BROKERS=${cluster.brokers}\n`);
    return 0;
  }
  if (runningCluster()) {
    throw new BrokerToolError(
      `${KAFKA_HOME} runs a cluster: stop it first (nest-streams-kafka stop) or start with --nodes.`,
    );
  }
  const state = await startBroker({
    reuseData,
    saslSsl: saslSslFile ? readSaslSslListener(saslSslFile) : undefined,
  });
  if (state.saslSslBrokers) {
    process.stdout.write(`KAFKA_SASL_SSL_BROKERS=${state.saslSslBrokers}\n`);
  }
  process.stdout.write(`KAFKA_BROKERS=${state.brokers}\n`);
  return 0;
}

async function status(): Promise<number> {
  const cluster = runningCluster();
  if (cluster) {
    for (const node of nodeProcessStates(cluster)) {
      process.stdout.write(`node ${node.nodeId}: ${node.state} (pid ${node.pid})\n`);
    }
    process.stdout.write(`KAFKA_BROKERS=${cluster.brokers}\n`);
    return 0;
  }
  const state = await runningBroker();
  process.stdout.write(
    state ? `KAFKA_BROKERS=${state.brokers} (pid ${state.pid})\n` : 'not running\n',
  );
  return state ? 0 : 1;
}

/** `node <kill|stop|resume|restart> <id>`: one node of the running cluster. */
async function nodeCommand(args: string[]): Promise<number> {
  const [action, id, ...rest] = args;
  const nodeId = Number(id);
  const known = (NODE_ACTIONS as readonly string[]).includes(action ?? '');
  if (!known || !Number.isInteger(nodeId)) {
    throw new UsageError('node takes kill, stop, resume or restart, and a node id');
  }
  noMore(rest);
  const state = await clusterNodeCommand(action as (typeof NODE_ACTIONS)[number], nodeId);
  const after = nodeProcessStates(readClusterState(KAFKA_HOME) ?? state).find(
    (n) => n.nodeId === nodeId,
  );
  process.stderr.write(`[kafka] node ${nodeId}: ${after?.state} (pid ${after?.pid})\n`);
  return 0;
}

/** `topics create <topic> ...`. */
async function topicsCommand(args: string[]): Promise<number> {
  const [action, topic, ...flags] = args;
  if (action !== 'create' || !topic || topic.startsWith('--')) {
    throw new UsageError('topics takes create and a topic name');
  }
  const partitions = takeCount(flags, '--partitions', 1);
  const replicationFactor = takeCount(flags, '--replication-factor', 1);
  const configs: Record<string, string> = {};
  for (const entry of takeRepeated(flags, '--config')) {
    const at = entry.indexOf('=');
    if (at <= 0) throw new UsageError(`--config takes <name>=<value>, got ${entry}`);
    configs[entry.slice(0, at)] = entry.slice(at + 1);
  }
  const ifNotExists = takeFlag(flags, '--if-not-exists');
  const brokers = await bootstrapBrokers(takeOption(flags, '--brokers'));
  noMore(flags);
  const outcome = await createTopic(
    brokers,
    { topic, partitions, replicationFactor, configs },
    { ifNotExists },
  );
  process.stderr.write(
    outcome === 'created'
      ? `[kafka] Created topic ${topic} (${partitions ?? 1} partitions) on ${brokers.join(',')}.\n`
      : `[kafka] Topic ${topic} exists already.\n`,
  );
  return 0;
}

/** `produce <topic>`: stdin's lines as records. */
async function produce(args: string[]): Promise<number> {
  const [topic, ...flags] = args;
  if (!topic || topic.startsWith('--')) throw new UsageError('produce takes a topic name');
  const separator = takeOption(flags, '--key-separator') ?? ':';
  const brokers = await bootstrapBrokers(takeOption(flags, '--brokers'));
  noMore(flags);
  const sent = await produceLines(brokers, topic, process.stdin, separator);
  process.stderr.write(`[kafka] Sent ${sent} record(s) to ${topic}.\n`);
  return 0;
}

main(process.argv[2], process.argv.slice(3)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`error: ${error.message}\n${USAGE}`);
      process.exit(2);
    }
    if (error instanceof BrokerToolError) {
      process.stderr.write(`error: ${error.message}\n`);
      if (error.details) process.stderr.write(`${error.details}\n`);
    } else {
      process.stderr.write(`error: ${error instanceof Error ? error.stack : String(error)}\n`);
    }
    process.exit(1);
  },
);

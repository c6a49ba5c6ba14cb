/**
 * `npm run kafka:start` / `npm run kafka:stop`: the project's local Apache Kafka broker.
 * start prints `KAFKA_BROKERS=<host:port>` as its last line; stop leaves no process of ours.
 * `stop --keep-data` then `start --reuse-data` restart it on the same port with the same data
 * (the reliability suite restarts a broker of its own this way, in its own
 * NEST_STREAMS_KAFKA_HOME). `start --sasl-ssl <listener.json>` adds a SASL_SSL listener (see
 * sasl-ssl-listener.ts) and prints `KAFKA_SASL_SSL_BROKERS=<host:port>` before the last line.
 *
 * `start --nodes 3` starts a cluster of three nodes instead (see cluster.ts), printing
 * `KAFKA_BROKERS=<h:p,h:p,h:p>`; `npm run kafka:node -- <kill|stop|resume|restart> <id>` does
 * that to one of its nodes; `kafka:stop` stops every node.
 */
import { BrokerToolError } from './broker-error';
import { runningBroker, startBroker, stopBroker } from './broker';
import { clusterNodeCommand, runningCluster, startCluster, stopCluster } from './cluster';
import { readClusterState, nodeProcessStates } from './cluster-state';
import { KAFKA_HOME } from './paths';
import { readSaslSslListener } from './sasl-ssl-listener';

const USAGE =
  'usage: tsx tools/kafka/cli.ts start [--nodes <n>] [--reuse-data] [--sasl-ssl <listener.json>] | stop [--keep-data] | status | node <kill|stop|resume|restart> <node id>\n';
const NODE_ACTIONS = ['kill', 'stop', 'resume', 'restart'] as const;

/** Removes `--name <value>` from `flags`; the value, or '' when the flag has none. */
function takeOption(flags: string[], name: string): string | undefined {
  const at = flags.indexOf(name);
  if (at < 0) return undefined;
  const value = flags[at + 1] ?? '';
  flags.splice(at, value ? 2 : 1);
  return value;
}

async function main(command: string | undefined, flags: string[]): Promise<number> {
  if (command === 'node') return nodeCommand(flags);
  const saslSslFile = takeOption(flags, '--sasl-ssl');
  const nodesText = takeOption(flags, '--nodes');
  const nodes = nodesText === undefined ? undefined : Number(nodesText);
  const known = command === 'start' ? ['--reuse-data'] : command === 'stop' ? ['--keep-data'] : [];
  const unknown = flags.filter((flag) => !known.includes(flag));
  if (saslSslFile !== undefined && (command !== 'start' || !saslSslFile)) {
    process.stderr.write('--sasl-ssl <listener.json> goes with start\n');
    command = undefined;
  }
  if (nodesText !== undefined && (command !== 'start' || !Number.isInteger(nodes))) {
    process.stderr.write('--nodes <n> goes with start\n');
    command = undefined;
  }
  if (nodes !== undefined && saslSslFile !== undefined) {
    process.stderr.write('--sasl-ssl is for the single-node broker, not with --nodes\n');
    command = undefined;
  }
  if (unknown.length > 0) {
    process.stderr.write(`unknown option ${unknown[0]}\n`);
    command = undefined;
  }
  switch (command) {
    case 'start': {
      const reuseData = flags.includes('--reuse-data');
      if (nodes !== undefined) {
        const cluster = await startCluster({ nodes, reuseData });
        process.stdout.write(`KAFKA_BROKERS=${cluster.brokers}\n`);
        return 0;
      }
      if (runningCluster()) {
        throw new BrokerToolError(
          `${KAFKA_HOME} runs a cluster: stop it first (npm run kafka:stop) or start with --nodes.`,
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
    case 'stop': {
      const keepData = flags.includes('--keep-data');
      const cluster = await stopCluster({ keepData });
      const stopped = cluster || (await stopBroker({ keepData }));
      const what = cluster ? 'Cluster' : 'Broker';
      process.stderr.write(
        stopped ? `[kafka] ${what} stopped.\n` : '[kafka] No broker was running.\n',
      );
      return 0;
    }
    case 'status': {
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
    default:
      process.stderr.write(USAGE);
      return 2;
  }
}

/** `node <kill|stop|resume|restart> <id>`: one node of the running cluster. */
async function nodeCommand(args: string[]): Promise<number> {
  const [action, id, ...rest] = args;
  const nodeId = Number(id);
  const known = (NODE_ACTIONS as readonly string[]).includes(action ?? '');
  if (!known || !Number.isInteger(nodeId) || rest.length > 0) {
    process.stderr.write(USAGE);
    return 2;
  }
  const state = await clusterNodeCommand(action as (typeof NODE_ACTIONS)[number], nodeId);
  const after = nodeProcessStates(readClusterState(KAFKA_HOME) ?? state).find(
    (n) => n.nodeId === nodeId,
  );
  process.stderr.write(`[kafka] node ${nodeId}: ${after?.state} (pid ${after?.pid})\n`);
  return 0;
}

main(process.argv[2], process.argv.slice(3)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof BrokerToolError) {
      process.stderr.write(`error: ${error.message}\n`);
      if (error.details) process.stderr.write(`${error.details}\n`);
    } else {
      process.stderr.write(`error: ${error instanceof Error ? error.stack : String(error)}\n`);
    }
    process.exit(1);
  },
);

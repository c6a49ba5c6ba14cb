/**
 * `npm run kafka:start` / `npm run kafka:stop`: the project's local Apache Kafka broker.
 * start prints `KAFKA_BROKERS=<host:port>` as its last line; stop leaves no process of ours.
 * `stop --keep-data` then `start --reuse-data` restart it on the same port with the same data
 * (the reliability suite restarts a broker of its own this way, in its own
 * NEST_STREAMS_KAFKA_HOME). `start --sasl-ssl <listener.json>` adds a SASL_SSL listener (see
 * sasl-ssl-listener.ts) and prints `KAFKA_SASL_SSL_BROKERS=<host:port>` before the last line.
 */
import { BrokerToolError } from './broker-error';
import { runningBroker, startBroker, stopBroker } from './broker';
import { readSaslSslListener } from './sasl-ssl-listener';

async function main(command: string | undefined, flags: string[]): Promise<number> {
  const saslSslAt = flags.indexOf('--sasl-ssl');
  const saslSslFile = saslSslAt >= 0 ? flags[saslSslAt + 1] : undefined;
  if (saslSslAt >= 0) flags = flags.filter((_, i) => i !== saslSslAt && i !== saslSslAt + 1);
  const known = command === 'start' ? ['--reuse-data'] : command === 'stop' ? ['--keep-data'] : [];
  const unknown = flags.filter((flag) => !known.includes(flag));
  if (saslSslAt >= 0 && (command !== 'start' || !saslSslFile)) {
    process.stderr.write('--sasl-ssl <listener.json> goes with start\n');
    command = undefined;
  }
  if (unknown.length > 0) {
    process.stderr.write(`unknown option ${unknown[0]}\n`);
    command = undefined;
  }
  switch (command) {
    case 'start': {
      const state = await startBroker({
        reuseData: flags.includes('--reuse-data'),
        saslSsl: saslSslFile ? readSaslSslListener(saslSslFile) : undefined,
      });
      if (state.saslSslBrokers) {
        process.stdout.write(`KAFKA_SASL_SSL_BROKERS=${state.saslSslBrokers}\n`);
      }
      process.stdout.write(`KAFKA_BROKERS=${state.brokers}\n`);
      return 0;
    }
    case 'stop': {
      const stopped = await stopBroker({ keepData: flags.includes('--keep-data') });
      process.stderr.write(
        stopped ? '[kafka] Broker stopped.\n' : '[kafka] No broker was running.\n',
      );
      return 0;
    }
    case 'status': {
      const state = await runningBroker();
      process.stdout.write(
        state ? `KAFKA_BROKERS=${state.brokers} (pid ${state.pid})\n` : 'not running\n',
      );
      return state ? 0 : 1;
    }
    default:
      process.stderr.write(
        'usage: tsx tools/kafka/cli.ts start [--reuse-data] [--sasl-ssl <listener.json>] | stop [--keep-data] | status\n',
      );
      return 2;
  }
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

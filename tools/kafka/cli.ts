/**
 * `npm run kafka:start` / `npm run kafka:stop`: the project's local Apache Kafka broker.
 * start prints `KAFKA_BROKERS=<host:port>` as its last line; stop leaves no process of ours.
 * `stop --keep-data` then `start --reuse-data` restart it on the same port with the same data
 * (the reliability suite restarts a broker of its own this way, in its own
 * NEST_STREAMS_KAFKA_HOME).
 */
import { BrokerToolError } from './broker-error';
import { runningBroker, startBroker, stopBroker } from './broker';

async function main(command: string | undefined, flags: string[]): Promise<number> {
  const known = command === 'start' ? ['--reuse-data'] : command === 'stop' ? ['--keep-data'] : [];
  const unknown = flags.filter((flag) => !known.includes(flag));
  if (unknown.length > 0) {
    process.stderr.write(`unknown option ${unknown[0]}\n`);
    command = undefined;
  }
  switch (command) {
    case 'start': {
      const state = await startBroker({ reuseData: flags.includes('--reuse-data') });
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
        'usage: tsx tools/kafka/cli.ts start [--reuse-data] | stop [--keep-data] | status\n',
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

import { BrokerToolError } from './broker-error';
import { runningBroker } from './broker';
import { runningCluster } from './cluster';
import { KAFKA_HOME } from './paths';

/**
 * The brokers a topic or produce command talks to: `flag` (`--brokers h:p,h:p`), else
 * `KAFKA_BROKERS`, else the broker or cluster this home runs (`nest-streams-kafka start`).
 *
 * @throws BrokerToolError when none is named and none runs: start one, or name yours.
 */
export async function bootstrapBrokers(flag: string | undefined): Promise<string[]> {
  const named = flag ?? process.env.KAFKA_BROKERS;
  if (named) return named.split(',').filter(Boolean);
  const local = runningCluster()?.brokers ?? (await runningBroker())?.brokers;
  if (local) return local.split(',');
  throw new BrokerToolError(
    `No broker to talk to: ${KAFKA_HOME} runs none. Start one (nest-streams-kafka start), or name yours with --brokers or KAFKA_BROKERS.`,
  );
}

import { runningBroker, startBroker } from '@nest-streams/testing/kafka';
import { warmUpBroker } from './broker-warm-up';

/**
 * Jest global setup for integration tests: uses the cluster named by KAFKA_BROKERS, reuses a
 * broker started with `npm run kafka:start`, or starts the project's local broker (and then
 * the teardown stops it), warmed up (see `warmUpBroker`) when it was just started. Workers
 * inherit KAFKA_BROKERS.
 */
export default async function globalSetup(): Promise<void> {
  if (process.env.KAFKA_BROKERS) {
    process.stderr.write(`\n[kafka] using KAFKA_BROKERS=${process.env.KAFKA_BROKERS}\n`);
    return;
  }
  const reused = await runningBroker();
  const state = reused ?? (await startBroker());
  if (!reused) process.env.NEST_STREAMS_TEST_BROKER_PID = String(state.pid);
  process.env.KAFKA_BROKERS = state.brokers;
  if (!reused) await warmUpBroker(state.brokers.split(','));
}

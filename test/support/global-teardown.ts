import { runningBroker, stopBroker } from '@nest-streams/testing/kafka';

/** Stops the broker that the global setup started; leaves a reused or external one alone. */
export default async function globalTeardown(): Promise<void> {
  const startedPid = process.env.NEST_STREAMS_TEST_BROKER_PID;
  if (!startedPid) return;
  const running = await runningBroker();
  if (running && String(running.pid) === startedPid) await stopBroker();
}

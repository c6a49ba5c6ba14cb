import { runningBroker, startBroker, stopBroker } from '@nest-streams/testing/kafka';

/** The broker a run uses, and whether the run must stop it afterwards. */
export interface BrokerHandle {
  /** Bootstrap servers, comma-separated `host:port`. */
  readonly brokers: string;
  /** True when this run started the broker (and {@link BrokerHandle.release} stops it). */
  readonly startedHere: boolean;
  /** Stops the broker if this run started it; a no-op otherwise. */
  release(): Promise<void>;
}

/**
 * The broker of `KAFKA_BROKERS` when set; else the project's local broker, reused when it
 * runs, started (and later stopped by {@link BrokerHandle.release}) when it does not.
 */
export async function acquireBroker(log: (line: string) => void): Promise<BrokerHandle> {
  const fromEnv = process.env.KAFKA_BROKERS?.trim();
  if (fromEnv) {
    log(`using KAFKA_BROKERS=${fromEnv}`);
    return { brokers: fromEnv, startedHere: false, release: async () => undefined };
  }
  const running = await runningBroker();
  if (running) {
    log(`reusing the local broker at ${running.brokers}`);
    return { brokers: running.brokers, startedHere: false, release: async () => undefined };
  }
  const started = await startBroker({ log: (line) => log(`[kafka] ${line}`) });
  return {
    brokers: started.brokers,
    startedHere: true,
    release: async () => {
      await stopBroker();
    },
  };
}

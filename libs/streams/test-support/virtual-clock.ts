import { ClusterRetry } from '../src/client/cluster-retry/cluster-retry';
import { DEFAULT_CLUSTER_RETRY_SETTINGS } from '../src/client/cluster-retry/cluster-retry-settings';
import type { TransientFault } from '../src/client/cluster-retry/transient-fault';

/**
 * A clock only the retry policy's back-off moves (`ms`, from 0), for specs of what retries:
 * {@link retry} is the engine's policy with Kafka's defaults on it, without jitter.
 */
export class VirtualClock {
  ms = 0;

  /** The policy over this clock, classifying faults with `classify`. */
  retry(classify: (error: unknown) => TransientFault | undefined): ClusterRetry {
    return new ClusterRetry(DEFAULT_CLUSTER_RETRY_SETTINGS, {
      classify,
      now: () => this.ms,
      sleep: async (ms) => void (this.ms += ms),
      random: () => 0.5,
    });
  }
}

/**
 * A {@link VirtualClock} for the tests of the calling `describe`, back at 0 before each of
 * them, and its retry policy classifying faults with `classify` (the policy keeps no state).
 */
export function virtualClockPerTest(classify: (error: unknown) => TransientFault | undefined): {
  readonly clock: VirtualClock;
  readonly retry: ClusterRetry;
} {
  const clock = new VirtualClock();
  beforeEach(() => {
    clock.ms = 0;
  });
  return { clock, retry: clock.retry(classify) };
}

import type { OrderStatsInstance } from '../../../tools/instances/order-stats-instance';
import { waitFor } from '../../support/wait-for';

/**
 * {@link waitFor} that fails at once when one of `instances` exits meanwhile, with that
 * process's exit status and the tail of its output (an instance that crashed will not become
 * ready: say why instead of timing out); a timeout carries every instance's last output.
 */
export function waitWhileAlive(
  instances: readonly OrderStatsInstance[],
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
  /** More to say on a timeout (asked only then), before the instances' output. */
  describe?: () => Promise<string>,
): Promise<void> {
  return waitFor(condition, timeoutMs, what, {
    intervalMs: 250,
    abortIf: () => {
      const exited = instances.find((i) => i.process.exitCode !== null || i.process.signalCode);
      return exited
        ? `instance ${exited.endpoint} exited (code ${exited.process.exitCode}, signal ${exited.process.signalCode}):\n${logTail(exited)}`
        : undefined;
    },
    context: async () => {
      const tails = instances.map((i) => `--- ${i.endpoint}\n${logTail(i)}`).join('\n');
      return describe ? `${await describe()}\n${tails}` : tails;
    },
  });
}

/** The last lines of an instance's output, without the health-check failure lines. */
export function logTail(instance: OrderStatsInstance, lines = 40): string {
  return instance.output
    .split('\n')
    .filter((line) => !line.includes('Health Check has failed'))
    .slice(-lines)
    .join('\n');
}

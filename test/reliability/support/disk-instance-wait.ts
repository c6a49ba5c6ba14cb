import type { OrderStatsInstance } from '../../app/order-stats-instance';

/**
 * Polls `condition` until it holds, like the cluster harness's waitFor, but fails at once when
 * one of `instances` exits meanwhile, with that process's exit status and the tail of its
 * output (an instance that crashed will not become ready: say why instead of timing out).
 */
export async function waitWhileAlive(
  instances: readonly OrderStatsInstance[],
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    const exited = instances.find((i) => i.process.exitCode !== null || i.process.signalCode);
    if (exited) {
      throw new Error(
        `waiting for ${what}: instance ${exited.endpoint} exited (code ${exited.process.exitCode}, signal ${exited.process.signalCode}):\n${logTail(exited)}`,
      );
    }
    try {
      if (await condition()) return;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      const tail = instances.map((i) => `--- ${i.endpoint}\n${logTail(i)}`).join('\n');
      throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}\n${tail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The last lines of an instance's output, without the health-check failure lines. */
export function logTail(instance: OrderStatsInstance, lines = 40): string {
  return instance.output
    .split('\n')
    .filter((line) => !line.includes('Health Check has failed'))
    .slice(-lines)
    .join('\n');
}

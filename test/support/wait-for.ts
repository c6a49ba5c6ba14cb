/** How {@link waitFor} polls and what it says when it gives up. */
export interface WaitForOptions {
  /** Between two attempts; 200 ms by default. */
  intervalMs?: number;
  /**
   * Asked before each attempt: a reason to stop waiting at once (a process the condition
   * depends on exited), or undefined to go on.
   */
  abortIf?: () => string | undefined;
  /**
   * Appended to the timeout's message (e.g. the last output of the processes involved); asked
   * only when the wait times out.
   */
  context?: () => string | Promise<string>;
}

/**
 * Polls `condition` until it holds. A condition that throws counts as not yet; the last error
 * is part of the timeout's message, so a condition can throw what it saw to explain itself.
 *
 * @throws Error `timed out waiting for <what>` after `timeoutMs`, or `waiting for <what>:
 *   <reason>` as soon as `abortIf` gives a reason.
 */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
  options: WaitForOptions = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    const abort = options.abortIf?.();
    if (abort !== undefined) throw new Error(`waiting for ${what}: ${abort}`);
    try {
      if (await condition()) return;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      const context = options.context ? `\n${await options.context()}` : '';
      throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}${context}`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 200));
  }
}

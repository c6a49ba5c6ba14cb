/** What `scheduleCheckPendingRequests` reads and writes on kafkajs' `RequestQueue`. */
export interface SchedulingRequestQueue {
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  readonly pending: readonly unknown[];
  checkPendingRequests(): void;
}

/** kafkajs 2.2.4's `CHECK_PENDING_REQUESTS_INTERVAL` (`src/network/requestQueue/index.js`). */
const CHECK_PENDING_REQUESTS_INTERVAL = 10;

/**
 * kafkajs 2.2.4's `RequestQueue.prototype.scheduleCheckPendingRequests`, with the delay never
 * negative. The original schedules `throttledUntil - Date.now()` ms, and `throttledUntil` is
 * -1 until the broker first throttles the client: Node 24 then prints `TimeoutNegativeWarning:
 * -1796135637033 is a negative number` and waits 1 ms. Waiting 0 ms (also run after 1 ms by
 * Node) keeps the behaviour without the warning.
 */
export function scheduleCheckPendingRequests(this: SchedulingRequestQueue): void {
  let scheduleAt = this.throttledUntil - Date.now();
  if (!this.throttleCheckTimeoutId) {
    if (this.pending.length > 0) {
      scheduleAt = scheduleAt > 0 ? scheduleAt : CHECK_PENDING_REQUESTS_INTERVAL;
    }
    this.throttleCheckTimeoutId = setTimeout(
      () => {
        this.throttleCheckTimeoutId = null;
        this.checkPendingRequests();
      },
      Math.max(0, scheduleAt),
    );
  }
}

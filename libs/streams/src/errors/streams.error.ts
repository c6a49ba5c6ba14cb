/**
 * The base of every error the engine throws. Each subclass has a stable `code` (safe to
 * switch on, log and map to HTTP statuses) and says whether retrying the same call can
 * succeed (`retriable`).
 *
 * What to do: when `retriable` is true, retry after a short backoff (a rebalance or a restore
 * is in progress); otherwise fix the input or the configuration named in the message.
 */
export abstract class StreamsError extends Error {
  /** A stable, documented identifier such as `STORE_NOT_AVAILABLE`. */
  abstract readonly code: string;
  /** True when the same call may succeed later without any change by the caller. */
  abstract readonly retriable: boolean;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }

  /** A plain object for logs and HTTP bodies. */
  toJSON(): { name: string; code: string; retriable: boolean; message: string } {
    return { name: this.name, code: this.code, retriable: this.retriable, message: this.message };
  }
}

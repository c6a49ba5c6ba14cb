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

  /**
   * The base class of one error type: this class with a fixed `code` and `retriable` flag.
   * Each error type extends it, e.g. `class StoreClosedError extends
   * StreamsError.coded('STORE_CLOSED', false)`, and keeps its own name, TSDoc and constructor.
   */
  static coded<
    const C extends string,
    const R extends boolean,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a mixin's base must take any[]
    B extends abstract new (...args: any[]) => StreamsError,
  >(this: B, code: C, retriable: R) {
    abstract class CodedError extends this {
      readonly code: C = code;
      readonly retriable: R = retriable;
    }
    return CodedError;
  }

  /** A plain object for logs and HTTP bodies. */
  toJSON(): { name: string; code: string; retriable: boolean; message: string } {
    return { name: this.name, code: this.code, retriable: this.retriable, message: this.message };
  }
}

import { StreamsError } from './streams.error';

/**
 * A window definition, a window bound or a timestamp handed to windowing code is invalid: a
 * negative or non-integer millisecond value, a window whose end precedes its start, a size or
 * inactivity gap of zero, a negative grace period, a hop larger than the window size.
 *
 * What to do: fix the value named in the message (all times are integer epoch milliseconds,
 * `>= 0`). A programming or configuration error: not retriable. Records with a negative
 * timestamp must be dropped (or given a valid one by the timestamp extractor) before they
 * reach a windowed operation.
 */
export class InvalidWindowError extends StreamsError.coded('INVALID_WINDOW', false) {
  constructor(message: string) {
    super(message);
  }
}

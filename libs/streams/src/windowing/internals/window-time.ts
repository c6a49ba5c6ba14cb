import { InvalidWindowError } from '../../errors/invalid-window.error';

/**
 * Checks that `value` is a time the windowing code can store: an integer number of epoch
 * milliseconds, `>= 0` and at most `Number.MAX_SAFE_INTEGER`. Returns it unchanged.
 *
 * @throws InvalidWindowError otherwise (fix the caller: negative timestamps must be dropped or
 *   corrected by the timestamp extractor before windowing).
 */
export function requireEpochMillis(value: number, what: string): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new InvalidWindowError(
      `${what} must be a non-negative integer of milliseconds, got ${value}`,
    );
  }
  return value;
}

/**
 * Checks that `value` is a duration in milliseconds: a safe integer, `> 0` when `positive`,
 * else `>= 0`. Returns it unchanged.
 *
 * @throws InvalidWindowError otherwise (fix the window or store definition).
 */
export function requireDurationMs(value: number, what: string, positive: boolean): number {
  if (!Number.isSafeInteger(value) || value < 0 || (positive && value === 0)) {
    throw new InvalidWindowError(
      `${what} must be ${positive ? 'a positive' : 'a non-negative'} integer of milliseconds, got ${value}`,
    );
  }
  return value;
}

/**
 * A query's time bound: `fallback` when absent.
 * @throws InvalidWindowError for `NaN` (fix the caller).
 */
export function queryTime(value: number | undefined, fallback: number, what: string): number {
  if (value === undefined) return fallback;
  if (Number.isNaN(value)) {
    throw new InvalidWindowError(`${what} must be a number of milliseconds, got NaN`);
  }
  return value;
}

/** Which size the reliability suite runs at: `reduced` (CI, the default) or `full` (`--full`). */
export type ReliabilitySize = 'reduced' | 'full';

/** The size chosen by `npm run test:reliability [-- --full]` (environment `RELIABILITY_SIZE`). */
export function reliabilitySize(): ReliabilitySize {
  const raw = process.env.RELIABILITY_SIZE ?? 'reduced';
  if (raw !== 'reduced' && raw !== 'full') {
    throw new Error(`RELIABILITY_SIZE must be reduced or full, got '${raw}'`);
  }
  return raw;
}

/** Picks the figure for the current size: `sized({ reduced: 20_000, full: 200_000 })`. */
export function sized<T>(choices: { reduced: T; full: T }): T {
  return choices[reliabilitySize()];
}

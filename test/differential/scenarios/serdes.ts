import { Serdes } from '@nest-streams/streams';

/** The serdes every scenario uses on both sides: UTF-8 strings and 8-byte longs. */
export const str = Serdes.String();
export const long = Serdes.Long();

/**
 * A generated `number` value as a number; `null` (a tombstone some operators hand to user
 * functions) as 1000, so that such a call shows in the results. The Java twins use
 * `Scenarios.num`.
 */
export function num(value: string | null): number {
  return value === null ? 1000 : Number.parseInt(value, 10);
}

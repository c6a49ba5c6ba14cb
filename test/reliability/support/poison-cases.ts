/** What the order-stats application must do with a poison record. */
export type PoisonOutcome =
  /** The value does not deserialize: the handler skips it (and dead-letters it when configured). */
  | 'skipped'
  /** It deserializes but the aggregation drops it (null key or null value): processed, not counted. */
  | 'dropped'
  /** It is a valid event after all and is counted under its record key. */
  | 'counted';

/** One kind of bad input, sent as one record with header `x-poison-case: <name>`. */
export interface PoisonCase {
  readonly name: string;
  readonly key: string | null;
  readonly value: Buffer | null;
  readonly outcome: PoisonOutcome;
  /** For `counted`: the amount added to the key's sum. */
  readonly amount?: number;
  /**
   * For `skipped`: the serde's error message (before the runtime's ` (topic ...)` suffix),
   * computed with this process's JSON.parse, which is the application's.
   */
  readonly errorMessage?: string;
}

/** Size of the huge values: 900 KB, under the broker's 1 MiB record limit. */
export const HUGE_VALUE_BYTES = 900 * 1024;

const GUARD_FAILED = 'Json serde: the parsed value failed its type guard';

/** The error the Json serde reports for bytes that are not JSON (as the app's Node says it). */
function parseError(bytes: Buffer): string {
  try {
    JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    return `Json serde cannot parse ${bytes.length} bytes: ${(error as Error).message}`;
  }
  throw new Error('expected a parse error');
}

const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));

/**
 * The poison records of the poison-input scenario: malformed JSON, wrong types, a non-finite
 * amount, JSON `null`, an empty value, bytes that are not UTF-8, a huge invalid and a huge
 * valid value, a null key, a null value (tombstone) and a key that does not match the value's
 * userId (the app aggregates by record key, so it counts under the key).
 */
export function poisonCases(): PoisonCase[] {
  const invalidJson = Buffer.from('{"userId": "user-001", "amount": ');
  const infinite = Buffer.from('{"userId":"user-004","amount":1e999}');
  const empty = Buffer.alloc(0);
  const notUtf8 = Buffer.from([0xff, 0xfe, 0x00, 0x7b]);
  const hugeInvalid = Buffer.alloc(HUGE_VALUE_BYTES, 'x');
  const hugeValid = json({
    userId: 'user-008',
    amount: 1.25,
    note: 'y'.repeat(HUGE_VALUE_BYTES - 64),
  });
  return [
    {
      name: 'invalid-json',
      key: 'user-001',
      value: invalidJson,
      outcome: 'skipped',
      errorMessage: parseError(invalidJson),
    },
    {
      name: 'wrong-types',
      key: 'user-002',
      value: json({ userId: 42, amount: 'x' }),
      outcome: 'skipped',
      errorMessage: GUARD_FAILED,
    },
    {
      name: 'amount-as-string',
      key: 'user-003',
      value: json({ userId: 'user-003', amount: '5' }),
      outcome: 'skipped',
      errorMessage: GUARD_FAILED,
    },
    {
      name: 'infinite-amount',
      key: 'user-004',
      value: infinite,
      outcome: 'skipped',
      errorMessage: GUARD_FAILED,
    },
    {
      name: 'json-null',
      key: 'user-005',
      value: Buffer.from('null'),
      outcome: 'skipped',
      errorMessage: GUARD_FAILED,
    },
    {
      name: 'empty-value',
      key: 'user-006',
      value: empty,
      outcome: 'skipped',
      errorMessage: parseError(empty),
    },
    {
      name: 'huge-invalid',
      key: 'user-007',
      value: hugeInvalid,
      outcome: 'skipped',
      errorMessage: parseError(hugeInvalid),
    },
    {
      name: 'not-utf8',
      key: 'user-013',
      value: notUtf8,
      outcome: 'skipped',
      errorMessage: parseError(notUtf8),
    },
    { name: 'huge-valid', key: 'user-008', value: hugeValid, outcome: 'counted', amount: 1.25 },
    {
      name: 'null-key',
      key: null,
      value: json({ userId: 'user-998', amount: 2 }),
      outcome: 'dropped',
    },
    { name: 'null-value', key: 'user-010', value: null, outcome: 'dropped' },
    {
      name: 'key-mismatch',
      key: 'user-011',
      value: json({ userId: 'user-999', amount: 3 }),
      outcome: 'counted',
      amount: 3,
    },
  ];
}

import {
  allUserIds,
  EventSequence,
  eventValue,
  MALFORMED_VALUES,
  malformedRecord,
  MAX_AMOUNT_CENTS,
  MIN_AMOUNT_CENTS,
  userId,
} from './events';

describe('user ids', () => {
  it('are user-001.. padded to three digits, or to the width of the user count', () => {
    expect(userId(1, 10)).toBe('user-001');
    expect(userId(42, 999)).toBe('user-042');
    expect(userId(7, 1000)).toBe('user-0007');
    expect(allUserIds(3)).toEqual(['user-001', 'user-002', 'user-003']);
    // Padding keeps the ids in numeric order when sorted as strings (range queries).
    const ids = allUserIds(1200);
    expect([...ids].sort()).toEqual(ids);
  });
});

describe('EventSequence', () => {
  it('is repeatable: the same seed and users give the same events', () => {
    const a = new EventSequence(20, 1234).take(500);
    const b = new EventSequence(20, 1234).take(500);
    expect(b).toEqual(a);
    expect(new EventSequence(20, 1235).take(500)).not.toEqual(a);
  });

  it('produces a prefix of a longer run whatever the batch sizes', () => {
    const whole = new EventSequence(5, 9).take(100);
    const pieces = new EventSequence(5, 9);
    const chunked = [...pieces.take(7), ...pieces.take(1), ...pieces.take(92)];
    expect(chunked).toEqual(whole);
    expect(chunked.map((e) => e.index)).toEqual(whole.map((_, i) => i));
  });

  it('draws every user and integer-cent amounts in 0.01..999.99', () => {
    const events = new EventSequence(8, 3).take(5000);
    expect(new Set(events.map((e) => e.userId))).toEqual(new Set(allUserIds(8)));
    for (const e of events) {
      expect(Number.isInteger(e.cents)).toBe(true);
      expect(e.cents).toBeGreaterThanOrEqual(MIN_AMOUNT_CENTS);
      expect(e.cents).toBeLessThanOrEqual(MAX_AMOUNT_CENTS);
    }
  });

  it('rejects a user count below 1', () => {
    expect(() => new EventSequence(0, 1)).toThrow(RangeError);
  });
});

describe('record values', () => {
  it('carry the contract JSON with the amount exact to 2 decimals', () => {
    expect(eventValue({ userId: 'user-001', cents: 1234 })).toBe(
      '{"userId":"user-001","amount":12.34}',
    );
    expect(eventValue({ userId: 'user-002', cents: 10 })).toBe(
      '{"userId":"user-002","amount":0.1}',
    );
    for (let cents = MIN_AMOUNT_CENTS; cents <= MAX_AMOUNT_CENTS; cents += 97) {
      const { amount } = JSON.parse(eventValue({ userId: 'u', cents })) as { amount: number };
      expect(Math.round(amount * 100)).toBe(cents);
      expect(String(amount)).toMatch(/^\d+(\.\d{1,2})?$/);
    }
  });

  it('makes malformed records that do not parse as the contract event', () => {
    const isEvent = (value: string): boolean => {
      try {
        const parsed: unknown = JSON.parse(value);
        return (
          typeof parsed === 'object' &&
          parsed !== null &&
          !Array.isArray(parsed) &&
          typeof (parsed as Record<string, unknown>).userId === 'string' &&
          typeof (parsed as Record<string, unknown>).amount === 'number'
        );
      } catch {
        return false;
      }
    };
    const records = Array.from({ length: MALFORMED_VALUES.length * 2 }, (_, j) =>
      malformedRecord(j, 3),
    );
    for (const r of records) {
      expect(isEvent(r.value)).toBe(false);
      expect(allUserIds(3)).toContain(r.key);
    }
    expect(new Set(records.map((r) => r.value.replace(/user-\d+/g, 'u'))).size).toBe(
      MALFORMED_VALUES.length,
    );
  });
});

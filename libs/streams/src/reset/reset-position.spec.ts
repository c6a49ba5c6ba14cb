import { StreamsConfigError } from '../errors/streams-config.error';
import {
  parseResetDatetime,
  parseResetDuration,
  positionTimestamp,
  targetOffset,
} from './reset-position';

describe('reset positions', () => {
  const log = { low: 10, high: 50 };

  it('takes a partition to its first offset, its end, or a given offset clamped to the log', () => {
    expect(targetOffset({ to: 'earliest' }, log)).toBe(10);
    expect(targetOffset({ to: 'latest' }, log)).toBe(50);
    expect(targetOffset({ to: 'offset', offset: 30 }, log)).toBe(30);
    expect(targetOffset({ to: 'offset', offset: 3 }, log)).toBe(10);
    expect(targetOffset({ to: 'offset', offset: 99 }, log)).toBe(50);
  });

  it('takes a time position to the offset found for its time, or the end when none is that recent', () => {
    const position = { to: 'datetime', timestamp: 1_000 } as const;
    expect(targetOffset(position, log, 42)).toBe(42);
    expect(targetOffset(position, log, -1)).toBe(50);
    expect(targetOffset(position, log, undefined)).toBe(50);
    expect(targetOffset({ to: 'duration', durationMs: 5 }, log, 5)).toBe(10);
  });

  it('asks offsets for the datetime itself, or for now minus the duration', () => {
    expect(positionTimestamp({ to: 'datetime', timestamp: 1_234 }, 9_999)).toBe(1_234);
    expect(positionTimestamp({ to: 'duration', durationMs: 1_000 }, 9_999)).toBe(8_999);
    expect(positionTimestamp({ to: 'earliest' }, 9_999)).toBeUndefined();
  });

  it("parses Kafka's ISO-8601 durations", () => {
    expect(parseResetDuration('PT1H30M')).toBe(5_400_000);
    expect(parseResetDuration('P2D')).toBe(172_800_000);
    expect(parseResetDuration('P1DT2H3M4.5S')).toBe(93_784_500);
    expect(parseResetDuration('pt15s')).toBe(15_000);
    for (const bad of ['', 'P', 'PT', '1h', 'P1H', 'PT-1H']) {
      expect(() => parseResetDuration(bad)).toThrow(StreamsConfigError);
    }
  });

  it('parses date-times with a zone, or as UTC without one', () => {
    expect(parseResetDatetime('2026-12-06T08:00:00.000Z')).toBe(Date.UTC(2026, 11, 6, 8));
    expect(parseResetDatetime('2026-12-06T08:00:00')).toBe(Date.UTC(2026, 11, 6, 8));
    expect(parseResetDatetime('2026-12-06T09:00:00+01:00')).toBe(Date.UTC(2026, 11, 6, 8));
    for (const bad of ['yesterday', '2026-12-06', '2026-13-45T99:00:00']) {
      expect(() => parseResetDatetime(bad)).toThrow(StreamsConfigError);
    }
  });
});

import { SerializationError } from '../../serde/serialization.error';
import { Serdes } from '../../serde/serdes';
import { SessionWindow } from '../../windowing/session-window';
import { SessionWindowedSerde } from './session-windowed.serde';
import { TimeWindow } from '../../windowing/time-window';
import { TimeWindowedSerde } from './time-windowed.serde';
import { Windowed } from '../../windowing/windowed';

describe('TimeWindowedSerde', () => {
  const serde = new TimeWindowedSerde(Serdes.String(), 300_000);

  it("writes Kafka's TimeWindowedSerializer layout: key bytes, then the 8-byte start", () => {
    const bytes = serde.serialize(new Windowed('alice', new TimeWindow(300_000, 600_000)));
    expect(bytes.toString('hex')).toBe('616c696365' + '00000000000493e0');
  });

  it('reads the end back as start + window size', () => {
    const windowed = serde.deserialize(Buffer.from('616c6963650000018cc251f400', 'hex'));
    expect(windowed.key).toBe('alice');
    expect(windowed.window).toBeInstanceOf(TimeWindow);
    expect([windowed.window.start, windowed.window.end]).toEqual([
      1_704_067_200_000, 1_704_067_500_000,
    ]);
  });

  it('throws SerializationError for bytes too short to hold a start', () => {
    expect(() => serde.deserialize(Buffer.from('0102', 'hex'), 'out')).toThrow(SerializationError);
  });
});

describe('SessionWindowedSerde', () => {
  const serde = new SessionWindowedSerde(Serdes.String());

  it("writes Kafka's SessionKeySchema layout: key bytes, end, then start", () => {
    const bytes = serde.serialize(new Windowed('bob', new SessionWindow(5_000, 8_000)));
    expect(bytes.toString('hex')).toBe('626f62' + '0000000000001f40' + '0000000000001388');
    const back = serde.deserialize(bytes);
    expect(back.key).toBe('bob');
    expect(back.window.equals(new SessionWindow(5_000, 8_000))).toBe(true);
  });

  it('throws SerializationError for bytes too short or with end before start', () => {
    expect(() => serde.deserialize(Buffer.alloc(15))).toThrow(SerializationError);
    const swapped = Buffer.from('626f62' + '0000000000001388' + '0000000000001f40', 'hex');
    expect(() => serde.deserialize(swapped)).toThrow(SerializationError);
  });
});

import type { Serde } from '../../serde/serde';
import { SessionKeySchema } from '../../state/internals/segments/session-key-schema';
import { SessionWindow } from '../../windowing/session-window';
import { asSerializationError } from './time-windowed.serde';
import { Windowed } from '../../windowing/windowed';

/**
 * The serde of session-windowed keys on changelogs and output topics, byte-compatible with
 * Kafka's `WindowedSerdes.sessionWindowedSerdeFrom(cls)`:
 * `[inner key bytes][session end: 8-byte BE long][session start: 8-byte BE long]`.
 */
export class SessionWindowedSerde<K> implements Serde<Windowed<K>> {
  constructor(private readonly inner: Serde<K>) {}

  /**
   * @throws SerializationError when the inner serde fails or the window is invalid.
   */
  serialize(value: Windowed<K>, topic?: string): Buffer {
    try {
      const key = this.inner.serialize(value.key, topic);
      return SessionKeySchema.toBinary(key, value.window.start, value.window.end);
    } catch (error: unknown) {
      throw asSerializationError(error, topic);
    }
  }

  /**
   * @throws SerializationError when `bytes` are shorter than 16 bytes, hold an invalid window,
   *   or the inner serde fails: the runtime hands the record to the deserialization-exception
   *   handler.
   */
  deserialize(bytes: Buffer, topic?: string): Windowed<K> {
    try {
      const { key, start, end } = SessionKeySchema.fromBinary(bytes);
      return new Windowed(this.inner.deserialize(key, topic), new SessionWindow(start, end));
    } catch (error: unknown) {
      throw asSerializationError(error, topic);
    }
  }
}

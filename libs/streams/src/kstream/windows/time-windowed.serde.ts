import { StreamsError } from '../../errors/streams.error';
import type { Serde } from '../../serde/serde';
import { SerializationError } from '../../serde/serialization.error';
import { WindowKeySchema } from '../../state/internals/segments/window-key-schema';
import { TimeWindow } from '../../windowing/time-window';
import { Windowed } from '../../windowing/windowed';
import { requireDurationMs } from '../../windowing/internals/window-time';

/**
 * The serde of time-windowed keys on changelogs and output topics (a windowed KTable's
 * `toStream()`), byte-compatible with Kafka's `WindowedSerdes.timeWindowedSerdeFrom(cls,
 * windowSize)`: `[inner key bytes][window start: 8-byte BE long]`.
 *
 * The end is not in the bytes: deserializing computes `end = start + windowSizeMs`, so the
 * size must be the one of the windows that produced the topic.
 */
export class TimeWindowedSerde<K> implements Serde<Windowed<K>> {
  /**
   * @throws InvalidWindowError when `windowSizeMs` is not a positive integer (fix the caller).
   */
  constructor(
    private readonly inner: Serde<K>,
    readonly windowSizeMs: number,
  ) {
    requireDurationMs(windowSizeMs, 'window size', true);
  }

  /**
   * @throws SerializationError when the inner serde fails or the window start is invalid.
   */
  serialize(value: Windowed<K>, topic?: string): Buffer {
    try {
      return WindowKeySchema.toBinary(this.inner.serialize(value.key, topic), value.window.start);
    } catch (error: unknown) {
      throw asSerializationError(error, topic);
    }
  }

  /**
   * @throws SerializationError when `bytes` are shorter than 8 bytes or the inner serde fails:
   *   the runtime hands the record to the deserialization-exception handler.
   */
  deserialize(bytes: Buffer, topic?: string): Windowed<K> {
    try {
      const { key, windowStart } = WindowKeySchema.fromBinary(bytes);
      const end = Math.min(windowStart + this.windowSizeMs, Number.MAX_SAFE_INTEGER);
      return new Windowed(this.inner.deserialize(key, topic), new TimeWindow(windowStart, end));
    } catch (error: unknown) {
      throw asSerializationError(error, topic);
    }
  }
}

/** Keeps serde errors as they are; wraps window-format errors as `SerializationError`. */
export function asSerializationError(error: unknown, topic: string | undefined): unknown {
  if (error instanceof SerializationError || !(error instanceof StreamsError)) {
    return error;
  }
  return new SerializationError(`windowed key: ${error.message}`, { cause: error, topic });
}

import { SerializationError } from './serialization.error';

/**
 * Checks that `bytes` are the `width` bytes a fixed-width number serde (`Integer`,
 * `LongBigInt`, `Double`) reads. Returns them unchanged.
 *
 * @throws SerializationError (named after `serde`, with `topic`) for any other length: the
 *   data was not written by that serde's serializer; not retriable.
 */
export function requireWidth(
  bytes: Buffer,
  width: number,
  serde: string,
  topic: string | undefined,
): Buffer {
  if (bytes.length !== width) {
    throw new SerializationError(`${serde} serde expects ${width} bytes, got ${bytes.length}`, {
      topic,
    });
  }
  return bytes;
}

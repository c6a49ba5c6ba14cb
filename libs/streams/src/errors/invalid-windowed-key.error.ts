import { StreamsError } from './streams.error';

/**
 * Bytes that should hold a windowed key (a window-store or session-store key, or a windowed
 * key read from a changelog or an output topic) are too short to contain the timestamps the
 * format requires.
 *
 * What to do: the bytes were not written in the windowed format this store or serde expects
 * (a topic shared with another producer, a store directory reused with another store kind, or
 * a window serde used for a session topic). Not retriable: when reading a topic, hand the
 * record to the deserialization-exception handler; for a store, wipe it and restore it from
 * its changelog.
 */
export class InvalidWindowedKeyError extends StreamsError.coded('INVALID_WINDOWED_KEY', false) {
  constructor(
    readonly format: string,
    readonly length: number,
    readonly minimumLength: number,
  ) {
    super(
      `${format} key of ${length} bytes is too short: the format needs at least ${minimumLength} bytes`,
    );
  }
}

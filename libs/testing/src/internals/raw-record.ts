import type { Headers } from '@nest-streams/streams';
import type { TestRecord } from '../test-record';

/** A collected record as the driver shows it: bytes, headers always present. */
export function rawRecord(r: {
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  readonly timestamp: number;
  readonly headers?: Headers;
  readonly partition: number;
  readonly offset: number;
}): TestRecord<Buffer | null, Buffer | null> {
  return {
    key: r.key,
    value: r.value,
    timestamp: r.timestamp,
    headers: r.headers ?? {},
    partition: r.partition,
    offset: r.offset,
  };
}

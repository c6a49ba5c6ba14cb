import type { Headers } from '../../../processor/record';
import { SerializationError } from '../../../serde/serialization.error';

/**
 * The context of a buffered record (Kafka Streams' `ProcessorRecordContext`): where it came
 * from, re-attached when the buffer emits it. Topic `''`, partition and offset -1 when the
 * record has no input record (a cache flush or punctuation forwarded it).
 */
export interface BufferedRecordContext {
  readonly timestamp: number;
  readonly offset: number;
  readonly topic: string;
  readonly partition: number;
  readonly headers: Headers;
}

/**
 * One buffered update (Kafka Streams' `BufferValue`), its values as bytes: `priorValue` is
 * what the key had before its first buffered update (what downstream last saw), `oldValue`
 * and `newValue` the latest update's. `oldIsPrior` when `oldValue` is the prior value itself
 * (Kafka counts it once in the buffer's size).
 */
export interface BufferValue {
  readonly priorValue: Buffer | null;
  readonly oldValue: Buffer | null;
  readonly newValue: Buffer | null;
  readonly oldIsPrior: boolean;
  readonly context: BufferedRecordContext;
}

const NULL_VALUE = -1;
const OLD_IS_PRIOR = -2;

/** The bytes of a header value (strings as UTF-8), `null` for an absent one. */
function headerBytes(value: Buffer | string | undefined): Buffer | null {
  if (value === undefined) return null;
  return typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
}

/**
 * Kafka's size estimate of a buffered record (`computeRecordSize`): buffer time, key, the
 * values (the old one only when it is not the prior value) and the context.
 */
export function bufferedRecordSize(key: Buffer, value: BufferValue): number {
  const { priorValue, oldValue, newValue, context } = value;
  let size = 8 + key.length;
  size += priorValue?.length ?? 0;
  size += oldValue === null || value.oldIsPrior ? 0 : oldValue.length;
  size += newValue?.length ?? 0;
  size += 8 + 8 + context.topic.length + 4;
  for (const [name, header] of Object.entries(context.headers)) {
    size += name.length + (headerBytes(header)?.length ?? 0);
  }
  return size;
}

/**
 * A buffered record as Kafka Streams logs it to the buffer's changelog (format version 3,
 * header `v` = 3): the record context (timestamp, offset, topic, partition, headers), the
 * prior, old and new values (4-byte length prefixed, -1 for null, -2 for an old value equal
 * to the prior one), then the buffer time.
 */
export function serializeBufferValue(value: BufferValue, bufferTime: number): Buffer {
  const { context } = value;
  const parts: Buffer[] = [];
  const long = (n: number): void => {
    const b = Buffer.allocUnsafe(8);
    b.writeBigInt64BE(BigInt(n), 0);
    parts.push(b);
  };
  const int = (n: number): void => {
    const b = Buffer.allocUnsafe(4);
    b.writeInt32BE(n, 0);
    parts.push(b);
  };
  const sized = (bytes: Buffer | null): void => {
    int(bytes === null ? NULL_VALUE : bytes.length);
    if (bytes !== null) parts.push(bytes);
  };
  long(context.timestamp);
  long(context.offset);
  sized(Buffer.from(context.topic, 'utf8'));
  int(context.partition);
  const headers = Object.entries(context.headers);
  int(headers.length);
  for (const [name, header] of headers) {
    sized(Buffer.from(name, 'utf8'));
    sized(headerBytes(header));
  }
  sized(value.priorValue);
  if (value.oldValue === null) int(NULL_VALUE);
  else if (value.priorValue !== null && value.priorValue.equals(value.oldValue)) int(OLD_IS_PRIOR);
  else sized(value.oldValue);
  sized(value.newValue);
  long(bufferTime);
  return Buffer.concat(parts);
}

/**
 * Reads {@link serializeBufferValue}'s bytes back.
 *
 * @throws SerializationError for bytes of another layout (a changelog written by another
 *   format version than 3).
 */
export function deserializeBufferValue(bytes: Buffer): { value: BufferValue; bufferTime: number } {
  let offset = 0;
  const need = (n: number): void => {
    if (offset + n > bytes.length) {
      throw new SerializationError('a suppression buffer changelog record is truncated');
    }
  };
  const long = (): number => {
    need(8);
    const n = Number(bytes.readBigInt64BE(offset));
    offset += 8;
    return n;
  };
  const int = (): number => {
    need(4);
    const n = bytes.readInt32BE(offset);
    offset += 4;
    return n;
  };
  const take = (length: number): Buffer | null => {
    if (length === NULL_VALUE) return null;
    need(length);
    const b = Buffer.from(bytes.subarray(offset, offset + length));
    offset += length;
    return b;
  };
  const timestamp = long();
  const recordOffset = long();
  const topic = take(int())?.toString('utf8') ?? '';
  const partition = int();
  const headers: { [name: string]: Buffer | undefined } = {};
  for (let count = int(); count > 0; count--) {
    const name = take(int())?.toString('utf8') ?? '';
    headers[name] = take(int()) ?? undefined;
  }
  const priorValue = take(int());
  const oldLength = int();
  const oldIsPrior = oldLength === OLD_IS_PRIOR;
  const oldValue = oldIsPrior ? priorValue : take(oldLength);
  const newValue = take(int());
  const bufferTime = long();
  const context = { timestamp, offset: recordOffset, topic, partition, headers };
  return { value: { priorValue, oldValue, newValue, oldIsPrior, context }, bufferTime };
}

// Records encoded as one uncompressed record batch (message format 2), into a single buffer
// sized up front. Client-independent: an adapter's produce request carries the bytes as they
// are. The counterpart of ./committed-records-decoder.ts.
import { crc32c } from './crc32c';
import { RECORD_BATCH_MAGIC } from './committed-records-decoder';

/** A header value of a record to encode: bytes, a UTF-8 string, or `null` (no value). */
export type BatchHeaderValue = Buffer | string | null | undefined;

/** One record to encode. */
export interface BatchRecord {
  /** The key; `null` or `undefined` encodes no key. Strings are encoded as UTF-8. */
  readonly key?: Buffer | string | null;
  /** The value; `null` or `undefined` encodes no value (a tombstone). */
  readonly value?: Buffer | string | null;
  /**
   * Headers by name, in the object's key order; an array gives the name one header per
   * element (Kafka allows repeated names); `null`/`undefined` encodes a header with no value.
   */
  readonly headers?: { readonly [name: string]: BatchHeaderValue | readonly BatchHeaderValue[] };
  /** Create time in epoch milliseconds; `null`/`undefined`: the encoding time. */
  readonly timestamp?: number | string | null;
}

/** The batch header fields a producer sets. */
export interface RecordBatchIdentity {
  /** The producer id of an idempotent or transactional producer; -1 (default) for neither. */
  readonly producerId?: bigint;
  /** The producer epoch; default 0 (what the broker expects with producer id -1). */
  readonly producerEpoch?: number;
  /** The sequence number of the batch's first record; default 0. */
  readonly baseSequence?: number;
  /** Whether the batch belongs to a transaction. */
  readonly transactional?: boolean;
  /** The partition leader epoch field; default 0 (the broker sets it on append). */
  readonly partitionLeaderEpoch?: number;
}

/** The record batch header: byte offsets of its fields (see the decoder's table). */
const HEADER_BYTES = 61;
const CRC_AT = 17;
const ATTRIBUTES_AT = 21;
const TRANSACTIONAL_FLAG = 0x10;
/** Bytes before the length field counts from (base offset and the length itself). */
const LOG_OVERHEAD = 12;
/** Zig-zag varints are exact in doubles up to 2^53. */
const MAX_EXACT = Number.MAX_SAFE_INTEGER;

/** A record's parts resolved to bytes once, with its encoded body size. */
interface Prepared {
  key: Buffer | null;
  value: Buffer | null;
  headers: [Buffer, Buffer | null][];
  timestampDelta: number;
  bodySize: number;
}

/**
 * Encodes `records` as one uncompressed record batch with base offset 0 (the broker assigns
 * offsets), create-time timestamps relative to the earliest record timestamp, offset deltas
 * 0..n-1, and its CRC-32C. Returns the whole batch: base offset, length, header and records,
 * as a produce request's records field carries it.
 *
 * An empty `records` gives a batch of no record (last offset delta -1), as kafkajs encodes it.
 *
 * @throws RangeError when a timestamp is not an integer, or its distance to the batch's first
 *   timestamp exceeds 2^52 (fix the record's timestamp).
 */
export function encodeRecordBatch(
  records: readonly BatchRecord[],
  identity: RecordBatchIdentity = {},
  now: number = Date.now(),
): Buffer {
  const timestamps = new Array<number>(records.length);
  let first = Infinity;
  let max = -Infinity;
  let stamped = false;
  for (let i = 0; i < records.length; i++) {
    const raw = records[i].timestamp;
    if (raw === null || raw === undefined) {
      timestamps[i] = now;
      continue;
    }
    const timestamp = typeof raw === 'number' ? raw : Number(raw);
    if (!Number.isSafeInteger(timestamp)) {
      throw new RangeError(`record ${i}: timestamp ${String(raw)} is not an integer`);
    }
    timestamps[i] = timestamp;
    stamped = true;
    if (timestamp < first) first = timestamp;
    if (timestamp > max) max = timestamp;
  }
  if (!stamped) first = max = now;
  const prepared = new Array<Prepared>(records.length);
  let size = HEADER_BYTES;
  for (let i = 0; i < records.length; i++) {
    const p = prepare(records[i], timestamps[i] - first, i);
    prepared[i] = p;
    size += sizeOfVarint(zigzag(p.bodySize)) + p.bodySize;
  }
  const out = Buffer.allocUnsafe(size);
  out.writeBigInt64BE(0n, 0);
  out.writeInt32BE(size - LOG_OVERHEAD, 8);
  out.writeInt32BE(identity.partitionLeaderEpoch ?? 0, 12);
  out.writeInt8(RECORD_BATCH_MAGIC, 16);
  out.writeInt16BE(identity.transactional ? TRANSACTIONAL_FLAG : 0, ATTRIBUTES_AT);
  out.writeInt32BE(records.length - 1, 23);
  out.writeBigInt64BE(BigInt(first), 27);
  out.writeBigInt64BE(BigInt(max), 35);
  out.writeBigInt64BE(identity.producerId ?? -1n, 43);
  out.writeInt16BE(identity.producerEpoch ?? 0, 51);
  out.writeInt32BE(identity.baseSequence ?? 0, 53);
  out.writeInt32BE(records.length, 57);
  let at = HEADER_BYTES;
  for (let i = 0; i < prepared.length; i++) at = writeRecord(out, at, prepared[i], i);
  out.writeUInt32BE(crc32c(out, ATTRIBUTES_AT, size), CRC_AT);
  return out;
}

function prepare(record: BatchRecord, timestampDelta: number, offsetDelta: number): Prepared {
  if (Math.abs(timestampDelta) > MAX_EXACT / 2) {
    throw new RangeError(`record ${offsetDelta}: timestamp too far from the batch's first`);
  }
  const key = bytesOf(record.key);
  const value = bytesOf(record.value);
  const headers: [Buffer, Buffer | null][] = [];
  const named = record.headers;
  let bodySize =
    1 + // attributes
    sizeOfVarint(zigzag(timestampDelta)) +
    sizeOfVarint(zigzag(offsetDelta)) +
    sizeOfBytes(key) +
    sizeOfBytes(value);
  let headerBytes = 0;
  if (named !== undefined) {
    for (const name of Object.keys(named)) {
      const values = named[name];
      const nameBytes = Buffer.from(name, 'utf8');
      for (const v of Array.isArray(values) ? values : [values]) {
        const valueBytes = bytesOf(v as BatchHeaderValue);
        headers.push([nameBytes, valueBytes]);
        headerBytes += sizeOfBytes(nameBytes) + sizeOfBytes(valueBytes);
      }
    }
  }
  bodySize += sizeOfVarint(zigzag(headers.length)) + headerBytes;
  return { key, value, headers, timestampDelta, bodySize };
}

function writeRecord(out: Buffer, start: number, p: Prepared, offsetDelta: number): number {
  let at = writeVarint(out, start, zigzag(p.bodySize));
  out[at++] = 0; // record attributes: none are used
  at = writeVarint(out, at, zigzag(p.timestampDelta));
  at = writeVarint(out, at, zigzag(offsetDelta));
  at = writeBytes(out, at, p.key);
  at = writeBytes(out, at, p.value);
  at = writeVarint(out, at, zigzag(p.headers.length));
  for (const [name, value] of p.headers) {
    at = writeBytes(out, at, name);
    at = writeBytes(out, at, value);
  }
  return at;
}

function bytesOf(value: Buffer | string | null | undefined): Buffer | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
}

/** Zig-zag encoding of a signed integer (exact for |n| <= 2^52). */
function zigzag(n: number): number {
  return n >= 0 ? n * 2 : -n * 2 - 1;
}

/** Bytes of the unsigned varint of a zig-zagged value. */
function sizeOfVarint(z: number): number {
  let size = 1;
  while (z >= 128) {
    z = Math.floor(z / 128);
    size++;
  }
  return size;
}

/** Bytes of a varint-length-prefixed byte string (`null`: length -1, one byte). */
function sizeOfBytes(bytes: Buffer | null): number {
  return bytes === null ? 1 : sizeOfVarint(bytes.length * 2) + bytes.length;
}

function writeVarint(out: Buffer, start: number, z: number): number {
  let at = start;
  while (z >= 128) {
    out[at++] = (z % 128) | 0x80;
    z = Math.floor(z / 128);
  }
  out[at++] = z;
  return at;
}

function writeBytes(out: Buffer, start: number, bytes: Buffer | null): number {
  if (bytes === null) {
    out[start] = 1; // zig-zag of -1
    return start + 1;
  }
  const at = writeVarint(out, start, bytes.length * 2);
  bytes.copy(out, at);
  return at + bytes.length;
}

import { addRecordHeader, type RecordHeaders } from '../wire-format/record-headers';

/** kafkajs' protocol decoder (`src/protocol/decoder.js`), the parts a record decode uses. */
export interface KafkajsDecoder {
  buffer: Buffer;
  offset: number;
  readInt8(): number;
  readVarInt(): number;
  readVarLong(): { value: bigint };
  readVarIntBytes(): Buffer | null;
  readVarIntString(): string | null;
}

/** The batch fields kafkajs hands its record decoder (one object per record batch). */
export interface RecordBatchContext {
  readonly firstOffset: string;
  readonly firstTimestamp: string;
  readonly magicByte?: number;
  readonly isControlBatch?: boolean;
  readonly timestampType?: number;
  readonly maxTimestamp?: string;
}

/** A decoded record, field for field what kafkajs 2.2.4's record decoder returns. */
export interface DecodedRecord {
  magicByte: number | undefined;
  attributes: number;
  timestamp: string;
  offset: string;
  key: Buffer | null;
  value: Buffer | null;
  headers: RecordHeaders;
  isControlRecord: boolean;
  batchContext: RecordBatchContext;
}

const LOG_APPEND_TIME = 1;
/** Varlong bytes read as a plain number: 7 bytes are 49 bits, exact in a double. */
const FAST_VARLONG_BYTES = 7;

/** A batch's first offset and timestamp, parsed once: numbers while exact, else bigints. */
interface BatchBase {
  readonly offset: number | bigint;
  readonly timestamp: number | bigint;
}

const bases = new WeakMap<RecordBatchContext, BatchBase>();

function exact(text: string): number | bigint {
  const n = Number(text);
  return Number.isSafeInteger(n) && String(n) === text ? n : BigInt(text);
}

function baseOf(context: RecordBatchContext): BatchBase {
  let base = bases.get(context);
  if (base === undefined) {
    base = { offset: exact(context.firstOffset), timestamp: exact(context.firstTimestamp) };
    bases.set(context, base);
  }
  return base;
}

/** `base + delta` in decimal, exactly (as kafkajs' BigInt-backed `Long` adds). */
function sum(base: number | bigint, delta: number | bigint): string {
  if (typeof base === 'number' && typeof delta === 'number') {
    const result = base + delta;
    if (Number.isSafeInteger(result)) return String(result);
  }
  return String(BigInt(base) + BigInt(delta));
}

/** A zigzag varlong: a number for up to 7 bytes, else kafkajs' own (BigInt) decoding. */
function readVarLong(decoder: KafkajsDecoder): number | bigint {
  const { buffer } = decoder;
  const start = decoder.offset;
  let result = 0;
  let multiplier = 1;
  for (let i = 0; i < FAST_VARLONG_BYTES; i++) {
    const byte = buffer[start + i];
    result += (byte & 0x7f) * multiplier;
    if (byte < 0x80) {
      decoder.offset = start + i + 1;
      return result % 2 === 0 ? result / 2 : -(result + 1) / 2;
    }
    multiplier *= 128;
  }
  return decoder.readVarLong().value;
}

/**
 * kafkajs 2.2.4's `src/protocol/recordBatch/record/v0/decoder.js` with the same result for
 * every record, without its cost per record: the batch's first offset and timestamp were parsed
 * from strings into BigInt-backed `Long`s for every record, the timestamp delta was read one
 * `Long` per byte, and every header copied the headers object so far (`{ ...obj }`). Here the
 * batch base is parsed once, deltas are added as numbers while that is exact (BigInt
 * otherwise), and headers are added in place. One deliberate difference: a header named like a
 * property of `Object.prototype` (`toString`, `constructor`, `__proto__`) is its value, where
 * kafkajs made it an array starting with what `Object.prototype` holds under that name.
 */
export function decodeRecordV0(
  decoder: KafkajsDecoder,
  batchContext: RecordBatchContext = {} as RecordBatchContext,
): DecodedRecord {
  const base = baseOf(batchContext);
  const attributes = decoder.readInt8();
  const timestampDelta = readVarLong(decoder);
  const timestamp =
    batchContext.timestampType === LOG_APPEND_TIME && batchContext.maxTimestamp
      ? batchContext.maxTimestamp
      : sum(base.timestamp, timestampDelta);
  const offset = sum(base.offset, decoder.readVarInt());
  const key = decoder.readVarIntBytes();
  const value = decoder.readVarIntBytes();
  const headers: DecodedRecord['headers'] = {};
  const count = decoder.readVarInt();
  for (let i = 0; i < count; i++) {
    const headerKey = decoder.readVarIntString();
    addRecordHeader(headers, String(headerKey), decoder.readVarIntBytes());
  }
  return {
    magicByte: batchContext.magicByte,
    attributes,
    timestamp,
    offset,
    key,
    value,
    headers,
    isControlRecord: batchContext.isControlBatch ?? false,
    batchContext,
  };
}

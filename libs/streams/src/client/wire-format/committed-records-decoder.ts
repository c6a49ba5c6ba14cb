// The records field of a fetched partition (record batches, message format 2) decoded straight
// into what a reader by assignment returns: committed data records, read_committed as Java's
// fetcher reads them. Client-independent: the adapter brings its decompression codecs.
import { CorruptRecordBatchError } from '../../errors/corrupt-record-batch.error';
import type { FetchedRecord } from '../assigned-partition-reader';
import { crc32c } from './crc32c';
import { AbortedTransactions, type AbortedTransaction } from './read-committed-filter';
import { addRecordHeader, type RecordHeaders } from './record-headers';

/** Decompresses a batch's records for a codec id of the batch attributes (1 gzip ... 4 zstd). */
export type RecordsDecompressor = (codec: number, compressed: Buffer) => Promise<Buffer>;

/**
 * The partition a fetch's records came from, whether their CRCs are checked, and whether their
 * headers are decoded.
 */
export interface RecordsSource {
  readonly topic: string;
  readonly partition: number;
  /**
   * Whether each whole batch's CRC-32C is checked before it is used (Java's `check.crcs`);
   * default true.
   */
  readonly checkCrcs?: boolean;
  /**
   * Whether each record's headers are decoded into its `headers` ({@link RecordHeaders}: a
   * value per name, an array for a repeated name, `null` for a header with no value); default
   * false: records have no `headers` (a changelog reader needs none, and skips their bytes).
   */
  readonly headers?: boolean;
}

/** What one fetched partition's record batches hold for a read_committed reader. */
export interface CommittedRecords {
  /**
   * The data records of every whole batch, in offset order, without control records and without
   * the records of aborted transactions.
   */
  readonly records: FetchedRecord[];
  /**
   * One past the last offset of the last whole batch (its base offset + last offset delta + 1),
   * also for a batch with no record left (compaction keeps a producer's last batch empty) and
   * for a skipped one (aborted, or a marker); `undefined` when no batch came whole.
   */
  readonly batchesEnd: number | undefined;
}

/** Offset of a message set's magic byte, the same for every message format. */
export const MAGIC_OFFSET = 16;
/** The magic byte of record batches (message format 2). */
export const RECORD_BATCH_MAGIC = 2;

/** The record batch header (message format 2): byte offsets of its fields. */
const BATCH = {
  length: 8,
  magic: MAGIC_OFFSET,
  /** The CRC-32C (uint32) of the bytes from the attributes to the batch's end. */
  crc: 17,
  attributes: 21,
  lastOffsetDelta: 23,
  baseTimestamp: 27,
  maxTimestamp: 35,
  producerId: 43,
  count: 57,
  records: 61,
} as const;
/** Bytes before a batch's length field counts from (base offset and the length itself). */
const LOG_OVERHEAD = 12;
const COMPRESSION_MASK = 0x07;
const LOG_APPEND_TIME_FLAG = 0x08;
const TRANSACTIONAL_FLAG = 0x10;
const CONTROL_FLAG = 0x20;
/** The control record type of an abort marker (a commit marker is 1). */
const ABORT_MARKER = 0;

/** A signed 64-bit big-endian integer as a number (offsets, timestamps, producer ids). */
function int64(buffer: Buffer, at: number): number {
  return buffer.readInt32BE(at) * 4_294_967_296 + buffer.readUInt32BE(at + 4);
}

/**
 * Reads the varints of one batch's records, in place: no object per field, no copy (keys and
 * values are views of the fetched bytes).
 */
class RecordCursor {
  constructor(
    readonly buffer: Buffer,
    public at: number,
  ) {}

  /** A zigzag varint (32-bit: lengths, deltas, counts). */
  varint(): number {
    const buffer = this.buffer;
    let at = this.at;
    let raw = 0;
    let shift = 0;
    let byte: number;
    do {
      if (shift > 28) throw new RangeError('a record varint is longer than 5 bytes');
      byte = buffer[at++];
      if (byte === undefined) throw new RangeError('a record ends past its batch');
      raw |= (byte & 0x7f) << shift;
      shift += 7;
    } while (byte & 0x80);
    this.at = at;
    return (raw >>> 1) ^ -(raw & 1);
  }

  /** A zigzag varlong as a number: exact up to 2^53 (a timestamp delta never comes near). */
  varlong(): number {
    const buffer = this.buffer;
    let at = this.at;
    let raw = 0;
    let multiplier = 1;
    let byte: number;
    do {
      if (multiplier > 2 ** 63) throw new RangeError('a record varlong is longer than 10 bytes');
      byte = buffer[at++];
      if (byte === undefined) throw new RangeError('a record ends past its batch');
      raw += (byte & 0x7f) * multiplier;
      multiplier *= 128;
    } while (byte & 0x80);
    this.at = at;
    return raw % 2 === 0 ? raw / 2 : -(raw + 1) / 2;
  }

  /** A length-prefixed UTF-8 string (a header name); `"null"` for length -1, as kafkajs has it. */
  string(): string {
    const length = this.varint();
    if (length < 0) return 'null';
    const start = this.at;
    this.at = start + length;
    if (this.at > this.buffer.length) throw new RangeError('a record ends past its batch');
    return this.buffer.toString('utf8', start, this.at);
  }

  /** A length-prefixed byte field: `null` for length -1, else a view of the bytes. */
  bytes(): Buffer | null {
    const length = this.varint();
    if (length < 0) return null;
    const start = this.at;
    this.at = start + length;
    if (this.at > this.buffer.length) throw new RangeError('a record ends past its batch');
    return this.buffer.subarray(start, this.at);
  }
}

/** Whether a control batch's record is an abort marker (its key: version int16, type int16). */
function isAbortMarker(records: Buffer): boolean {
  const cursor = new RecordCursor(records, 0);
  cursor.varint(); // record length
  cursor.at += 1; // attributes
  cursor.varlong(); // timestamp delta
  cursor.varint(); // offset delta
  const key = cursor.bytes();
  return key !== null && key.length >= 4 && key.readInt16BE(2) === ABORT_MARKER;
}

/** The headers of one record, the cursor at their count; it ends past them. */
function decodeHeaders(cursor: RecordCursor, end: number): RecordHeaders {
  const headers: RecordHeaders = {};
  const count = cursor.varint();
  for (let i = 0; i < count; i++) {
    const name = cursor.string();
    addRecordHeader(headers, name, cursor.bytes());
  }
  if (cursor.at > end) throw new RangeError('a record ends past its batch');
  return headers;
}

/**
 * Appends the data records of one batch's (decompressed) records to `out`, with their headers
 * when `withHeaders`.
 */
function decodeRecords(
  records: Buffer,
  count: number,
  baseOffset: number,
  baseTimestamp: number,
  /** The batch's max timestamp when its timestamps are the log's append time; else -1. */
  appendTime: number,
  withHeaders: boolean,
  out: FetchedRecord[],
): void {
  const cursor = new RecordCursor(records, 0);
  for (let i = 0; i < count; i++) {
    const length = cursor.varint();
    const end = cursor.at + length;
    cursor.at += 1; // attributes (unused in format 2)
    const delta = cursor.varlong();
    const timestamp = appendTime < 0 ? baseTimestamp + delta : appendTime;
    const offset = baseOffset + cursor.varint();
    const key = cursor.bytes();
    const value = cursor.bytes();
    if (end > records.length) throw new RangeError('a record ends past its batch');
    if (withHeaders) {
      const headers = decodeHeaders(cursor, end);
      out.push({ key, value, timestamp, offset, headers });
    } else {
      out.push({ key, value, timestamp, offset });
    }
    cursor.at = end; // past the headers, or the end of the ones just read
  }
}

/**
 * Decodes the records field of one fetched partition: each whole record batch in order (a
 * trailing batch that the fetch's byte limit cut is left for the next fetch), committed records
 * only. As Java's fetcher: an aborted transaction (from the response's list) takes effect at
 * its first offset and ends at its producer's abort marker; a transactional batch of a producer
 * whose transaction is aborted there is skipped whole; control batches are skipped. Headers are
 * decoded only when `source.headers` is true (otherwise skipped unread). Each whole batch's
 * CRC-32C is checked before any of its fields is used (before decompressing: a compressed
 * batch's CRC covers its compressed bytes), as Java's consumer does with `check.crcs` (kafkajs
 * checks none), unless `source.checkCrcs` is false.
 *
 * @throws CorruptRecordBatchError for a batch whose CRC does not match its bytes (nothing of
 *   the fetch is returned: fetch it again); Error for a batch in an older message format (0 or
 *   1: Kafka 4 brokers convert them, so a broker sending one is misconfigured); RangeError for a
 *   record that does not fit its batch (corrupt bytes, with the check off); what `decompress`
 *   throws for a codec the client lacks.
 */
export async function decodeCommittedRecords(
  data: Buffer,
  aborted: readonly AbortedTransaction[] | undefined,
  decompress: RecordsDecompressor,
  source: RecordsSource,
): Promise<CommittedRecords> {
  const checkCrcs = source.checkCrcs ?? true;
  const withHeaders = source.headers ?? false;
  const records: FetchedRecord[] = [];
  const transactions = aborted !== undefined && aborted.length > 0;
  const state = transactions ? new AbortedTransactions(aborted) : undefined;
  let batchesEnd: number | undefined;
  let at = 0;
  while (at + BATCH.records <= data.length) {
    const size = LOG_OVERHEAD + data.readInt32BE(at + BATCH.length);
    if (at + size > data.length) break; // cut by the fetch's byte limit
    const magic = data.readInt8(at + BATCH.magic);
    if (magic !== RECORD_BATCH_MAGIC) {
      throw new Error(
        `fetched records use message format ${magic}; only record batches (2) are read`,
      );
    }
    const batch = data.subarray(at, at + size);
    at += size;
    const baseOffset = int64(batch, 0);
    if (checkCrcs) {
      const expected = batch.readUInt32BE(BATCH.crc);
      const computed = crc32c(batch, BATCH.attributes);
      if (computed !== expected) {
        throw new CorruptRecordBatchError(
          source.topic,
          source.partition,
          baseOffset,
          expected,
          computed,
        );
      }
    }
    const lastOffset = baseOffset + batch.readInt32BE(BATCH.lastOffsetDelta);
    batchesEnd = lastOffset + 1;
    const attributes = batch.readInt16BE(BATCH.attributes);
    const count = batch.readInt32BE(BATCH.count);
    if (count <= 0) continue;
    const transactional = (attributes & TRANSACTIONAL_FLAG) !== 0;
    const control = (attributes & CONTROL_FLAG) !== 0;
    let body = batch.subarray(BATCH.records);
    const codec = attributes & COMPRESSION_MASK;
    if (codec !== 0) body = await decompress(codec, body);
    if (state !== undefined && transactional) {
      state.reach(lastOffset);
      const producerId = String(int64(batch, BATCH.producerId));
      if (control) {
        if (isAbortMarker(body)) state.end(producerId);
        continue;
      }
      if (state.isAborted(producerId)) continue;
    }
    if (control) continue;
    const appendTime =
      (attributes & LOG_APPEND_TIME_FLAG) !== 0 ? int64(batch, BATCH.maxTimestamp) : -1;
    decodeRecords(
      body,
      count,
      baseOffset,
      int64(batch, BATCH.baseTimestamp),
      appendTime,
      withHeaders,
      records,
    );
  }
  return { records, batchesEnd };
}

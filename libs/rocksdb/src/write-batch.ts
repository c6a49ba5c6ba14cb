const PUT = 1;
const DELETE = 2;
const DELETE_RANGE = 3;
const INITIAL_BYTES = 4096;

/**
 * Writes to apply atomically with `RocksDB.write`/`writeAsync`, or to add to an SST file with
 * `SstFileWriter.add`. Encoded as it is built into one Buffer (native/batch.h), so that a batch
 * of a thousand writes is one call into the addon. Reusable: `clear()` keeps the memory.
 *
 * Errors: `TypeError` for a key or value that is not a Buffer (nothing is added).
 */
export class WriteBatch {
  private buffer = Buffer.allocUnsafe(INITIAL_BYTES);
  private size = 0;
  private count = 0;

  /** Number of writes in the batch. */
  get length(): number {
    return this.count;
  }

  /** Encoded size in bytes. */
  get byteLength(): number {
    return this.size;
  }

  /**
   * Sets `key` to `value`; with `valuePrefix`, to `valuePrefix` followed by `value`, without
   * building that value first (both are copied into the batch now).
   */
  put(key: Buffer, value: Buffer, valuePrefix?: Buffer): this {
    assertBuffer(key, 'key');
    assertBuffer(value, 'value');
    if (valuePrefix !== undefined) assertBuffer(valuePrefix, 'valuePrefix');
    this.append(PUT, key, value, valuePrefix);
    return this;
  }

  /** Deletes `key`. */
  delete(key: Buffer): this {
    assertBuffer(key, 'key');
    this.append(DELETE, key, undefined);
    return this;
  }

  /** Deletes every key in `[from, to)` (`to` exclusive, as in RocksDB). */
  deleteRange(from: Buffer, to: Buffer): this {
    assertBuffer(from, 'from');
    assertBuffer(to, 'to');
    this.append(DELETE_RANGE, from, to);
    return this;
  }

  /** Empties the batch, keeping its memory. */
  clear(): void {
    this.size = 0;
    this.count = 0;
  }

  /** @internal The encoded writes (a view, valid until the next change). */
  encoded(): Buffer {
    return this.buffer.subarray(0, this.size);
  }

  private append(op: number, key: Buffer, second: Buffer | undefined, secondPrefix?: Buffer): void {
    const prefixLength = secondPrefix === undefined ? 0 : secondPrefix.length;
    const needed = 5 + key.length + (second === undefined ? 0 : 4 + prefixLength + second.length);
    this.reserve(needed);
    const buffer = this.buffer;
    let at = this.size;
    buffer[at] = op;
    buffer.writeUInt32LE(key.length, at + 1);
    at += 5;
    buffer.set(key, at);
    at += key.length;
    if (second !== undefined) {
      buffer.writeUInt32LE(prefixLength + second.length, at);
      at += 4;
      if (secondPrefix !== undefined) {
        buffer.set(secondPrefix, at);
        at += prefixLength;
      }
      buffer.set(second, at);
      at += second.length;
    }
    this.size = at;
    this.count++;
  }

  private reserve(bytes: number): void {
    if (this.size + bytes <= this.buffer.length) {
      return;
    }
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.size + bytes));
    this.buffer.copy(grown, 0, 0, this.size);
    this.buffer = grown;
  }
}

function assertBuffer(value: unknown, what: string): asserts value is Buffer {
  if (!Buffer.isBuffer(value)) {
    throw new TypeError(`${what} must be a Buffer`);
  }
}

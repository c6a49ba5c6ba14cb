import type { Serde } from '../../serde/serde';
import type { KeyValue, KeyValueIterator } from '../key-value-store';
import type { KeyValueBytes } from '../bytes-store';

/**
 * A typed {@link KeyValueIterator} over a bytes iterator: deserializes each entry as it is
 * read. Closing it (or breaking out of a `for ... of`) stops the bytes iterator.
 */
export class DeserializingKeyValueIterator<K, V> implements KeyValueIterator<K, V> {
  private peeked: IteratorResult<KeyValueBytes> | undefined;
  private closed = false;

  constructor(
    private readonly source: IterableIterator<KeyValueBytes>,
    private readonly keySerde: Serde<K>,
    private readonly valueSerde: Serde<V>,
    private readonly topic: string,
  ) {}

  [Symbol.iterator](): this {
    return this;
  }

  next(): IteratorResult<KeyValue<K, V>, undefined> {
    const result = this.take();
    if (result.done) return { done: true, value: undefined };
    const entry = result.value;
    return {
      done: false,
      value: {
        key: this.keySerde.deserialize(entry.key, this.topic),
        value: this.valueSerde.deserialize(entry.value, this.topic),
      },
    };
  }

  peekNextKey(): K | undefined {
    if (this.peeked === undefined) this.peeked = this.pull();
    return this.peeked.done
      ? undefined
      : this.keySerde.deserialize(this.peeked.value.key, this.topic);
  }

  return(): IteratorResult<KeyValue<K, V>, undefined> {
    this.close();
    return { done: true, value: undefined };
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.peeked = undefined;
    this.source.return?.();
  }

  private take(): IteratorResult<KeyValueBytes> {
    const peeked = this.peeked;
    if (peeked !== undefined) {
      this.peeked = undefined;
      return peeked;
    }
    return this.pull();
  }

  private pull(): IteratorResult<KeyValueBytes> {
    if (this.closed) return { done: true, value: undefined };
    const result = this.source.next();
    if (result.done) this.closed = true;
    return result;
  }
}

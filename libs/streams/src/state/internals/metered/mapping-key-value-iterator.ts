import type { KeyValue, KeyValueIterator } from '../../key-value-store';

/**
 * A typed {@link KeyValueIterator} over any source iterator: `key` and `value` turn each
 * source entry into the typed key and value as it is read. Closing it (or breaking out of a
 * `for ... of`) stops the source.
 */
export class MappingKeyValueIterator<S, K, V> implements KeyValueIterator<K, V> {
  private peeked: IteratorResult<S> | undefined;
  private closed = false;

  constructor(
    private readonly source: Iterator<S>,
    private readonly key: (entry: S) => K,
    private readonly value: (entry: S) => V,
  ) {}

  [Symbol.iterator](): this {
    return this;
  }

  next(): IteratorResult<KeyValue<K, V>, undefined> {
    let result = this.peeked;
    this.peeked = undefined;
    result ??= this.pull();
    if (result.done) return { done: true, value: undefined };
    return { done: false, value: { key: this.key(result.value), value: this.value(result.value) } };
  }

  peekNextKey(): K | undefined {
    this.peeked ??= this.pull();
    return this.peeked.done ? undefined : this.key(this.peeked.value);
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

  private pull(): IteratorResult<S> {
    if (this.closed) return { done: true, value: undefined };
    const result = this.source.next();
    if (result.done) this.closed = true;
    return result;
  }
}

import type { ChangelogRecord, StateStoreContext } from '../../../processor/state-store-context';
import type { BytesStore, BytesWrite, KeyValueBytes } from '../../bytes-store';
import { ForwardingStoreLayer } from './forwarding-store-layer';
import type { StampedWrite, StoreRange } from './store-layer';
import { restoresWithTimestamps, withTimestamps } from '../timestamped-changelog';

/**
 * The bottom of a key-value store's stack: a storage engine (RocksDB, in memory, any
 * `BytesStore`) seen as a {@link StoreLayer}. Reads of a range go to the engine's range,
 * reverse range or prefix scan; writes are one engine batch, always applied (key-value stores
 * have no retention); the read-modify-write calls are the engine's own.
 */
export class KeyValueEngineLayer extends ForwardingStoreLayer<BytesStore> {
  readonly segments = undefined;

  constructor(readonly engine: BytesStore) {
    super(engine);
  }

  init(_context: StateStoreContext): Promise<void> {
    return this.engine.open();
  }

  override put(key: Buffer, value: Buffer | null): void {
    this.engine.put(key, value);
  }

  override putAll(writes: readonly BytesWrite[]): void {
    this.engine.putAll(writes);
  }

  override putIfAbsent(key: Buffer, value: Buffer): Buffer | undefined {
    return this.engine.putIfAbsent(key, value);
  }

  override delete(key: Buffer): Buffer | undefined {
    return this.engine.delete(key);
  }

  read(range: StoreRange): IterableIterator<KeyValueBytes> {
    const { engine } = this;
    const entries =
      range.prefix !== undefined
        ? engine.prefixScan(range.prefix)
        : range.backward
          ? engine.reverseRange(range.lower, range.upper)
          : engine.range(range.lower, range.upper);
    return range.accept === undefined ? entries : accepted(entries, range.accept);
  }

  async readAsync(range: StoreRange): Promise<KeyValueBytes[]> {
    const entries =
      range.prefix !== undefined
        ? await this.engine.prefixScanAsync(range.prefix)
        : await this.engine.rangeAsync(range.lower, range.upper, range.backward === true);
    const accept = range.accept;
    return accept === undefined ? entries : entries.filter((e) => accept(e.key));
  }

  write(writes: readonly StampedWrite[]): boolean[] {
    this.engine.putAll(writes);
    return writes.map(() => true);
  }

  restore(records: readonly BytesWrite[]): void | Promise<void> {
    const engine = this.engine;
    return engine.putAllAsync ? engine.putAllAsync(records) : engine.putAll(records);
  }

  restoreWithTimestamps(records: readonly ChangelogRecord[]): void | Promise<void> {
    const engine = this.engine;
    return restoresWithTimestamps(engine)
      ? engine.putAllWithTimestampsAsync(records)
      : this.restore(withTimestamps(records));
  }
}

function* accepted(
  entries: IterableIterator<KeyValueBytes>,
  accept: (key: Buffer) => boolean,
): IterableIterator<KeyValueBytes> {
  try {
    for (const entry of entries) if (accept(entry.key)) yield entry;
  } finally {
    entries.return?.();
  }
}

import { SyncReadUnavailableError } from '../../../errors/sync-read-unavailable.error';
import type { StateStoreContext } from '../../../processor/state-store-context';
import { PrefetchedReads } from './prefetched-reads';
import type { StampedWrite, StoreLayer } from './store-layer';
import { WrappedStoreLayer } from './wrapped-store-layer';

/**
 * The hot-path read layer for an engine without synchronous reads when caching is disabled:
 * {@link prefetch} loads a batch's keys in one `getManyAsync`, and the batch's synchronous
 * reads (`get`, `getMany`, `putIfAbsent`, `delete`) are answered from that read set, which
 * every write through this layer keeps current. Writes pass straight through.
 *
 * A synchronous read of a key that was neither prefetched nor written since the last
 * prefetch throws `SyncReadUnavailableError`: prefetch the batch's keys first. `delete` of
 * such a key is a blind delete that returns `undefined`.
 */
export class PrefetchingBytesStore extends WrappedStoreLayer {
  private readonly reads = new PrefetchedReads();

  constructor(inner: StoreLayer) {
    super(inner);
  }

  override async init(context: StateStoreContext): Promise<void> {
    await super.init(context);
    this.reads.clear();
  }

  /** Replaces the read set with `keys`, read in one multi-get. */
  async prefetch(keys: readonly Buffer[]): Promise<void> {
    await this.reads.load(keys, this.inner, () => undefined);
  }

  override get(key: Buffer): Buffer | undefined {
    const value = this.reads.lookup(key.toString('latin1'));
    if (value === undefined) throw new SyncReadUnavailableError(this.name);
    return value ?? undefined;
  }

  override getMany(keys: readonly Buffer[]): (Buffer | undefined)[] {
    return keys.map((key) => this.get(key));
  }

  override write(writes: readonly StampedWrite[]): boolean[] {
    const written = this.inner.write(writes);
    for (const { key, value } of writes) this.reads.noteWrite(key.toString('latin1'), value);
    return written;
  }

  override delete(key: Buffer): Buffer | undefined {
    const old = this.reads.lookup(key.toString('latin1'));
    this.put(key, null);
    return old ?? undefined;
  }

  override async close(): Promise<void> {
    this.reads.clear();
    await this.inner.close();
  }

  override async destroy(): Promise<void> {
    this.reads.clear();
    await this.inner.destroy();
  }
}

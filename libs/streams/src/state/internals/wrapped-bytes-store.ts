import type { StateStoreContext } from '../../processor/state-store-context';
import type { BytesStore, BytesStoreCapabilities, BytesWrite, KeyValueBytes } from '../bytes-store';

/**
 * The base of the bytes-level store layers (change-logging, caching, prefetching): a
 * {@link BytesStore} that forwards every call to the store it wraps. A layer overrides what
 * its concern changes and inherits the rest.
 *
 * Layers are opened with {@link WrappedBytesStore.init}, which initializes the layer and then
 * the layers below it; the engine at the bottom is opened with `open()`.
 */
export abstract class WrappedBytesStore implements BytesStore {
  constructor(readonly inner: BytesStore) {}

  get name(): string {
    return this.inner.name;
  }

  get capabilities(): BytesStoreCapabilities {
    return this.inner.capabilities;
  }

  /** Initializes the layers below, then this one (override and call `super.init` first). */
  async init(context: StateStoreContext): Promise<void> {
    await initBytesStore(this.inner, context);
  }

  open(): Promise<void> {
    return this.inner.open();
  }

  isOpen(): boolean {
    return this.inner.isOpen();
  }

  get(key: Buffer): Buffer | undefined {
    return this.inner.get(key);
  }

  getMany(keys: readonly Buffer[]): (Buffer | undefined)[] {
    return this.inner.getMany(keys);
  }

  getAsync(key: Buffer): Promise<Buffer | undefined> {
    return this.inner.getAsync(key);
  }

  getManyAsync(keys: readonly Buffer[]): Promise<(Buffer | undefined)[]> {
    return this.inner.getManyAsync(keys);
  }

  put(key: Buffer, value: Buffer | null): void {
    this.inner.put(key, value);
  }

  putAll(writes: readonly BytesWrite[]): void {
    this.inner.putAll(writes);
  }

  putIfAbsent(key: Buffer, value: Buffer): Buffer | undefined {
    return this.inner.putIfAbsent(key, value);
  }

  delete(key: Buffer): Buffer | undefined {
    return this.inner.delete(key);
  }

  range(from: Buffer | undefined, to: Buffer | undefined): IterableIterator<KeyValueBytes> {
    return this.inner.range(from, to);
  }

  reverseRange(from: Buffer | undefined, to: Buffer | undefined): IterableIterator<KeyValueBytes> {
    return this.inner.reverseRange(from, to);
  }

  prefixScan(prefix: Buffer): IterableIterator<KeyValueBytes> {
    return this.inner.prefixScan(prefix);
  }

  all(): IterableIterator<KeyValueBytes> {
    return this.inner.all();
  }

  reverseAll(): IterableIterator<KeyValueBytes> {
    return this.inner.reverseAll();
  }

  rangeAsync(
    from: Buffer | undefined,
    to: Buffer | undefined,
    reverse?: boolean,
  ): Promise<KeyValueBytes[]> {
    return this.inner.rangeAsync(from, to, reverse);
  }

  prefixScanAsync(prefix: Buffer): Promise<KeyValueBytes[]> {
    return this.inner.prefixScanAsync(prefix);
  }

  approximateNumEntries(): number {
    return this.inner.approximateNumEntries();
  }

  flush(): Promise<void> {
    return this.inner.flush();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/** Opens a bytes stack: `init(context)` for a layer, `open()` for an engine. */
export function initBytesStore(store: BytesStore, context: StateStoreContext): Promise<void> {
  return store instanceof WrappedBytesStore ? store.init(context) : store.open();
}

/** The engine at the bottom of a stack of layers. */
export function innermostBytesStore(store: BytesStore): BytesStore {
  let current = store;
  while (current instanceof WrappedBytesStore) current = current.inner;
  return current;
}

/** The first layer of type `type` in a stack, outermost first, if any. */
export function findLayer<T extends WrappedBytesStore>(
  store: BytesStore,
  type: abstract new (...args: never[]) => T,
): T | undefined {
  let current = store;
  while (current instanceof WrappedBytesStore) {
    if (current instanceof type) return current;
    current = current.inner;
  }
  return undefined;
}

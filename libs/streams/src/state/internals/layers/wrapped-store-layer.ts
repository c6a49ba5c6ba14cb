import type { StateStoreContext } from '../../../processor/state-store-context';
import type { BytesWrite, KeyValueBytes } from '../../bytes-store';
import { ForwardingStoreLayer } from './forwarding-store-layer';
import type { SegmentRules, StampedWrite, StoreLayer, StoreRange } from './store-layer';

/**
 * The base of the store layers (change-logging, caching, prefetching), one per concern for
 * every store kind: a {@link StoreLayer} that forwards every call to the layer it wraps. A
 * layer overrides what its concern changes and inherits the rest. Restores go straight to the
 * engine (a cache is empty while its task restores; a changelog is not written back to while
 * it is read).
 */
export abstract class WrappedStoreLayer extends ForwardingStoreLayer<StoreLayer> {
  constructor(readonly inner: StoreLayer) {
    super(inner);
  }

  get segments(): SegmentRules | undefined {
    return this.inner.segments;
  }

  /** Initializes the layers below, then this one (override and call `super.init` first). */
  init(context: StateStoreContext): Promise<void> {
    return this.inner.init(context);
  }

  read(range: StoreRange): IterableIterator<KeyValueBytes> {
    return this.inner.read(range);
  }

  readAsync(range: StoreRange): Promise<KeyValueBytes[]> {
    return this.inner.readAsync(range);
  }

  write(writes: readonly StampedWrite[]): boolean[] {
    return this.inner.write(writes);
  }

  restore(records: readonly BytesWrite[]): void | Promise<void> {
    return this.inner.restore(records);
  }
}

/** The engine adapter at the bottom of a stack of layers. */
export function innermostLayer(store: StoreLayer): StoreLayer {
  let current = store;
  while (current instanceof WrappedStoreLayer) current = current.inner;
  return current;
}

/** The first layer of type `type` in a stack, outermost first, if any. */
export function findLayer<T extends StoreLayer>(
  store: StoreLayer,
  type: abstract new (...args: never[]) => T,
): T | undefined {
  let current: StoreLayer | undefined = store;
  while (current !== undefined) {
    if (current instanceof type) return current;
    current = current instanceof WrappedStoreLayer ? current.inner : undefined;
  }
  return undefined;
}

import type { StateStoreContext } from '../state-store-context';
import type { WindowBytesStore } from './segmented-window-bytes.store';

/** A window-store layer that binds to the task when it opens (change-logging, caching). */
interface ContextualLayer {
  init(context: StateStoreContext): Promise<void>;
}

/** A layer that wraps another one. */
interface WrappingLayer {
  readonly inner: WindowBytesStore;
}

function isContextual(store: WindowBytesStore): store is WindowBytesStore & ContextualLayer {
  return typeof (store as Partial<ContextualLayer>).init === 'function';
}

/**
 * Opens a window-store stack for a task: the outermost layer that needs the task's context
 * (`init`) opens everything below it; a bare engine is just opened.
 *
 * @throws what the layers throw (`ProcessorStateError` for a stack without a collector).
 */
export function initWindowStack(
  store: WindowBytesStore,
  context: StateStoreContext,
): Promise<void> {
  return isContextual(store) ? store.init(context) : store.open();
}

/** The first layer of `type` in a window-store stack, outermost first, or `undefined`. */
export function findWindowLayer<T extends WindowBytesStore>(
  store: WindowBytesStore,
  type: abstract new (...args: never[]) => T,
): T | undefined {
  let layer: WindowBytesStore | undefined = store;
  while (layer !== undefined) {
    if (layer instanceof type) return layer;
    layer = (layer as Partial<WrappingLayer>).inner;
  }
  return undefined;
}

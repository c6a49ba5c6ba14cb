import type { StateStoreContext } from '../../processor/state-store-context';

/** A store layer that binds to the task when it opens (change-logging, caching). */
interface ContextualLayer {
  init(context: StateStoreContext): Promise<void>;
}

/** Any layer of a segmented store stack (window, session): it can at least be opened. */
interface OpenableLayer {
  open(): Promise<void>;
}

function isContextual(store: object): store is ContextualLayer {
  return typeof (store as Partial<ContextualLayer>).init === 'function';
}

/**
 * Opens a window or session store stack for a task: the outermost layer that needs the task's
 * context (`init`) opens everything below it; a bare engine is just opened.
 *
 * @throws what the layers throw (`ProcessorStateError` for a logging stack without a collector).
 */
export function initStack(store: OpenableLayer, context: StateStoreContext): Promise<void> {
  return isContextual(store) ? store.init(context) : store.open();
}

/** The first layer of `type` in a stack (layers expose what they wrap as `inner`), or `undefined`. */
export function findLayer<T>(
  store: object,
  type: abstract new (...args: never[]) => T,
): T | undefined {
  let layer: object | undefined = store;
  while (layer !== undefined) {
    if (layer instanceof type) return layer;
    layer = (layer as { inner?: object }).inner;
  }
  return undefined;
}

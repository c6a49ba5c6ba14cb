import type { ProcessorContext } from '../../processor/processor-context';
import type { ValueAndTimestamp } from '../../state/value-and-timestamp';
import type { Windowed } from '../../windowing/windowed';
import type { DslWindowStore } from './dsl-window-stores';
import type { KTableValueGetter } from './ktable-value-getter';

/**
 * Reads a windowed table's row (time or sliding windows): the window store's value of the
 * key's window, by window start.
 */
export class WindowStoreValueGetter<K, VA> implements KTableValueGetter<Windowed<K>, VA> {
  private store!: DslWindowStore<K, VA>;

  constructor(private readonly storeName: string) {}

  init(context: ProcessorContext<unknown, unknown>): void {
    this.store = context.getStateStore<DslWindowStore<K, VA>>(this.storeName);
  }

  get(key: Windowed<K>): ValueAndTimestamp<VA> | undefined {
    return this.store.fetch(key.key, key.window.start);
  }

  async prefetch(keys: readonly Windowed<K>[]): Promise<void> {
    await this.store.prefetch?.(keys.map((k) => ({ key: k.key, windowStart: k.window.start })));
  }
}

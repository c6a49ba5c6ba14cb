import type { ProcessorSupplier } from '../../../processor/processor';
import type { ProcessorContext } from '../../../processor/processor-context';
import type { Record } from '../../../processor/record';
import type { ValueAndTimestamp } from '../../../state/value-and-timestamp';
import type { Predicate } from '../../functions';
import type { Change } from '../change';
import type {
  KTableProcessorSupplier,
  KTableValueGetter,
  KTableValueGetterSupplier,
} from '../ktable-value-getter';
import { MaterializedTableProcessor } from './materialized-table.processor';
import { storeGetterSupplier } from '../timestamped-store-getter';

/**
 * `KTable.filter` / `filterNot`: a row that fails the predicate becomes absent, so its update
 * is forwarded as a delete (`newValue: null`), as Kafka Streams does: downstream cannot know
 * whether the row passed before. With old values on, an update that is absent before and
 * after is not forwarded at all. A materialized filter reads old values from its own store.
 */
export class KTableFilterProcessor<K, V> extends MaterializedTableProcessor<K, V, V> {
  constructor(
    private readonly predicate: Predicate<K, V>,
    private readonly not: boolean,
    sendOldValues: boolean,
    storeName: string | undefined,
  ) {
    super(sendOldValues, storeName);
  }

  process(record: Record<K, Change<V>>): void {
    const key = record.key;
    const newValue = this.keep(key, record.value.newValue);
    const oldValue = !this.sendOldValues
      ? null
      : this.output.materialized
        ? this.output.current(key)
        : this.keep(key, record.value.oldValue);
    if (this.sendOldValues && newValue === null && oldValue === null) return;
    this.output.emit(record, newValue, oldValue);
  }

  private keep(key: K, value: V | null): V | null {
    return value !== null && this.predicate(key, value) !== this.not ? value : null;
  }
}

/** Reads a filtered, unmaterialized table: the parent's row if it passes the predicate. */
class KTableFilterValueGetter<K, V> implements KTableValueGetter<K, V> {
  constructor(
    private readonly parent: KTableValueGetter<K, V>,
    private readonly predicate: Predicate<K, V>,
    private readonly not: boolean,
  ) {}

  init(context: ProcessorContext<unknown, unknown>): void {
    this.parent.init(context);
  }

  get(key: K): ValueAndTimestamp<V> | undefined {
    const row = this.parent.get(key);
    return row !== undefined && this.predicate(key, row.value) !== this.not ? row : undefined;
  }

  prefetch(keys: readonly K[]): Promise<void> {
    return this.parent.prefetch(keys);
  }
}

/** The KTable node of a filter, materialized in `storeName` when given. */
export class KTableFilterSupplier<K, V> implements KTableProcessorSupplier<K, V> {
  private sendOldValues: boolean;

  constructor(
    private readonly parent: KTableProcessorSupplier<K, V>,
    private readonly predicate: Predicate<K, V>,
    private readonly not: boolean,
    readonly storeName: string | undefined,
  ) {
    // As Kafka Streams: old values from a materialized parent spare downstream the deletes of
    // rows that were absent before and after.
    this.sendOldValues = parent.enableSendingOldValues(false);
  }

  processorSupplier(): ProcessorSupplier<K, Change<V>, K, Change<V>> {
    return () =>
      new KTableFilterProcessor(this.predicate, this.not, this.sendOldValues, this.storeName);
  }

  view(): KTableValueGetterSupplier<K, V> {
    if (this.storeName !== undefined) return storeGetterSupplier(this.storeName);
    const parent = this.parent.view();
    return {
      get: () => new KTableFilterValueGetter(parent.get(), this.predicate, this.not),
      storeNames: () => parent.storeNames(),
    };
  }

  enableSendingOldValues(forceMaterialization: boolean): boolean {
    if (this.storeName !== undefined || this.parent.enableSendingOldValues(forceMaterialization)) {
      this.sendOldValues = true;
    }
    return this.sendOldValues;
  }
}

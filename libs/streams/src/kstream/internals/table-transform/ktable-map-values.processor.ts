import type { ProcessorSupplier } from '../../../processor/processor';
import type { ProcessorContext } from '../../../processor/processor-context';
import type { Record } from '../../../processor/record';
import type { ValueAndTimestamp } from '../../../state/value-and-timestamp';
import type { ValueMapper } from '../../functions';
import type { Change } from '../change';
import type {
  KTableProcessorSupplier,
  KTableValueGetter,
  KTableValueGetterSupplier,
} from '../ktable-value-getter';
import { MaterializedTableProcessor } from './materialized-table.processor';
import { storeGetterSupplier } from '../timestamped-store-getter';

/**
 * `KTable.mapValues`: maps new (and, when asked for, old) values; deletes stay deletes. A
 * materialized mapValues reads old values from its own store.
 */
export class KTableMapValuesProcessor<K, V, VR> extends MaterializedTableProcessor<K, V, VR> {
  constructor(
    private readonly mapper: ValueMapper<V, VR, K>,
    sendOldValues: boolean,
    storeName: string | undefined,
  ) {
    super(sendOldValues, storeName);
  }

  process(record: Record<K, Change<V>>): void {
    const { newValue, oldValue } = record.value;
    const key = record.key;
    this.output.emit(
      record,
      newValue === null ? null : this.mapper(newValue, key),
      !this.sendOldValues
        ? null
        : this.output.materialized
          ? this.output.current(key)
          : oldValue === null
            ? null
            : this.mapper(oldValue, key),
    );
  }
}

/** Reads a mapped, unmaterialized table: the parent's row, mapped. */
class KTableMapValuesValueGetter<K, V, VR> implements KTableValueGetter<K, VR> {
  constructor(
    private readonly parent: KTableValueGetter<K, V>,
    private readonly mapper: ValueMapper<V, VR, K>,
  ) {}

  init(context: ProcessorContext<unknown, unknown>): void {
    this.parent.init(context);
  }

  get(key: K): ValueAndTimestamp<VR> | undefined {
    const row = this.parent.get(key);
    return row === undefined
      ? undefined
      : { value: this.mapper(row.value, key), timestamp: row.timestamp };
  }

  prefetch(keys: readonly K[]): Promise<void> {
    return this.parent.prefetch(keys);
  }
}

/** The KTable node of a mapValues, materialized in `storeName` when given. */
export class KTableMapValuesSupplier<K, V, VR> implements KTableProcessorSupplier<K, VR> {
  private sendOldValues = false;

  constructor(
    private readonly parent: KTableProcessorSupplier<K, V>,
    private readonly mapper: ValueMapper<V, VR, K>,
    readonly storeName: string | undefined,
  ) {}

  processorSupplier(): ProcessorSupplier<K, Change<V>, K, Change<VR>> {
    return () => new KTableMapValuesProcessor(this.mapper, this.sendOldValues, this.storeName);
  }

  view(): KTableValueGetterSupplier<K, VR> {
    if (this.storeName !== undefined) return storeGetterSupplier(this.storeName);
    const parent = this.parent.view();
    return {
      get: () => new KTableMapValuesValueGetter(parent.get(), this.mapper),
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

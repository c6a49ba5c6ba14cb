import type { Processor, ProcessorSupplier } from '../../processor/processor';
import type { ProcessorContext } from '../../processor/processor-context';
import type { Record } from '../../processor/record';
import type { ValueAndTimestamp } from '../../state/value-and-timestamp';
import type { ValueMapper } from '../functions';
import type { Change } from './change';
import type {
  KTableProcessorSupplier,
  KTableValueGetter,
  KTableValueGetterSupplier,
} from './ktable-value-getter';
import { distinctKeys } from './dropped-records';
import { MaterializedTableOutput } from './materialized-table-output';
import { storeGetterSupplier } from './timestamped-store-getter';

/**
 * `KTable.mapValues`: maps new (and, when asked for, old) values; deletes stay deletes. A
 * materialized mapValues reads old values from its own store.
 */
export class KTableMapValuesProcessor<K, V, VR> implements Processor<K, Change<V>, K, Change<VR>> {
  readonly keyPreserving = true;
  private output!: MaterializedTableOutput<K, VR>;

  /** Loads the stored rows of a batch's keys, when old values come from the own store. */
  readonly prefetch?: (records: readonly Record<K, Change<V>>[]) => Promise<void>;

  constructor(
    private readonly mapper: ValueMapper<V, VR, K>,
    private readonly sendOldValues: boolean,
    private readonly storeName: string | undefined,
  ) {
    if (sendOldValues && storeName !== undefined) {
      this.prefetch = (records) => this.output.prefetch(distinctKeys(records));
    }
  }

  init(context: ProcessorContext<K, Change<VR>>): void {
    this.output = new MaterializedTableOutput(context, this.storeName, this.sendOldValues);
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

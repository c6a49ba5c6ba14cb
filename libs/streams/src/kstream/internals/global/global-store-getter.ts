import { UnknownStateStoreError } from '../../../errors/unknown-state-store.error';
import { globalStoresOf } from '../../../processor/internals/internal-config';
import type { ProcessorContext } from '../../../processor/processor-context';
import type {
  TimestampedKeyValueStore,
  ValueAndTimestamp,
} from '../../../state/value-and-timestamp';
import type { KTableValueGetter, KTableValueGetterSupplier } from '../ktable-value-getter';

/**
 * A global store as a processor of any task reaches it: through `getStateStore`, as in Kafka
 * Streams, else through the map its host hands the tasks in
 * `appConfigs[InternalConfig.GLOBAL_STATE_STORES]` (what `KafkaStreams` and the TopologyTestDriver do).
 *
 * @throws UnknownStateStoreError when neither has it: the host does not run global stores
 *   (`KafkaStreams` and the TopologyTestDriver both do; a host of your own must hand them over).
 */
export function globalStateStore<S>(context: ProcessorContext<unknown, unknown>, name: string): S {
  try {
    return context.getStateStore<S>(name);
  } catch (error) {
    const store = globalStoresOf(context.appConfigs)?.get(name);
    if (store !== undefined) return store as S;
    throw new UnknownStateStoreError(
      `global store '${name}' is not available to task ${context.taskId.toString()}: its host does not run global stores`,
      { cause: error },
    );
  }
}

/** Reads a global table's rows from its timestamped store. */
class GlobalStoreGetter<K, V> implements KTableValueGetter<K, V> {
  private store!: TimestampedKeyValueStore<K, V>;

  constructor(private readonly storeName: string) {}

  init(context: ProcessorContext<unknown, unknown>): void {
    this.store = globalStateStore<TimestampedKeyValueStore<K, V>>(context, this.storeName);
  }

  get(key: K): ValueAndTimestamp<V> | undefined {
    return this.store.get(key);
  }

  prefetch(keys: readonly K[]): Promise<void> {
    return this.store.prefetch(keys);
  }
}

/** The rows of the global table kept in `storeName`, for processors of any task. */
export function globalStoreGetterSupplier<K, V>(
  storeName: string,
): KTableValueGetterSupplier<K, V> {
  return { get: () => new GlobalStoreGetter<K, V>(storeName), storeNames: () => [] };
}

import {
  type KeyValueStore,
  type Processor,
  type ProcessorContext,
  type Record,
  Serdes,
  Stores,
  Topology,
} from '@nest-streams/streams';

export interface OrderEvent {
  userId: string;
  amount: number;
}
export interface OrderStats {
  count: number;
  sum: number;
}

/** The source text's count-and-sum aggregation, written with the Processor API. */
class StatsProcessor implements Processor<string, OrderEvent, string, OrderStats> {
  private store!: KeyValueStore<string, OrderStats>;
  constructor(
    private readonly failOnKey?: string,
    /** Failures left for `failOnKey`, shared by every task's processor. */
    private readonly failures: { left: number } = { left: Infinity },
  ) {}
  init(context: ProcessorContext<string, OrderStats>): void {
    this.store = context.getStateStore('stats-store');
  }
  async prefetch(records: readonly Record<string, OrderEvent>[]): Promise<void> {
    await this.store.prefetch(records.map((r) => r.key));
  }
  process(record: Record<string, OrderEvent>): void {
    if (record.key === this.failOnKey && this.failures.left > 0) {
      this.failures.left--;
      throw new Error(`poison key ${record.key}`);
    }
    const old = this.store.get(record.key) ?? { count: 0, sum: 0 };
    this.store.put(record.key, { count: old.count + 1, sum: old.sum + record.value.amount });
  }
}

export function statsTopology(
  inputTopic: string,
  options: {
    inMemory?: boolean;
    caching?: boolean;
    /** Records with this key throw from the processor... */
    failOnKey?: string;
    /** ...this many times in all (default: always). */
    failures?: number;
  } = {},
): Topology {
  const failures = { left: options.failures ?? Infinity };
  const supplier = options.inMemory
    ? Stores.inMemoryKeyValueStore('stats-store')
    : Stores.persistentKeyValueStore('stats-store');
  let builder = Stores.keyValueStoreBuilder(supplier, Serdes.String(), Serdes.Json<OrderStats>());
  builder =
    options.caching === false ? builder.withCachingDisabled() : builder.withCachingEnabled();
  return new Topology()
    .addSource('events', inputTopic, {
      keySerde: Serdes.String(),
      valueSerde: Serdes.Json<OrderEvent>(),
    })
    .addProcessor('stats', () => new StatsProcessor(options.failOnKey, failures), 'events')
    .addStateStore(builder, 'stats');
}

import type { Processor } from '../../../processor/processor';
import type { ProcessorContext } from '../../../processor/processor-context';
import type { Record } from '../../../processor/record';
import type { Change } from '../change';
import { DroppedRecords } from '../dropped-records';
import type { SubscriptionStore } from './subscription-receive.processor';
import type { CombinedKeySchema, SubscriptionResponseWrapper } from './subscription-wrappers';

const IDENTITY = { serialize: (bytes: Buffer): Buffer => bytes };

/**
 * Answers every subscriber of a foreign row when the row changes (Kafka Streams'
 * `ForeignTableJoinProcessorSupplier`, `...-foreign-join-subscription`): a prefix scan of the
 * subscription store finds the rows subscribed to the key, each gets the row's new value (or
 * `null`) with the hash of its subscription, at the change's timestamp.
 */
export class ForeignTableJoinProcessor<KO, K, VO> implements Processor<
  KO,
  Change<VO>,
  K,
  SubscriptionResponseWrapper<VO>
> {
  readonly dropped = new DroppedRecords();
  private context!: ProcessorContext<K, SubscriptionResponseWrapper<VO>>;
  private store!: SubscriptionStore<K>;

  constructor(
    private readonly storeName: string,
    private readonly schema: CombinedKeySchema<KO, K>,
  ) {}

  init(context: ProcessorContext<K, SubscriptionResponseWrapper<VO>>): void {
    this.dropped.attach(context);
    this.context = context;
    this.store = context.getStateStore<SubscriptionStore<K>>(this.storeName);
  }

  process(record: Record<KO, Change<VO>>): void {
    if (this.dropped.nullKey(record.key)) return;
    const iterator = this.store.prefixScan(this.schema.prefix(record.key), IDENTITY);
    let subscribers;
    try {
      subscribers = [...iterator];
    } finally {
      iterator.close();
    }
    for (const { key, value } of subscribers) {
      this.context.forward(
        record.withKey(this.schema.primaryKeyOf(key)).withValue({
          originalValueHash: value.value.hash,
          foreignValue: record.value.newValue,
          primaryPartition: value.value.primaryPartition,
        }),
      );
    }
  }
}

import type { KafkaStreams, QueryableStoreType } from '@nest-streams/streams';
import { StoreQueryParameters } from '@nest-streams/streams';
import { StoreReadContext } from './store-read-context';

/**
 * What a store facade reads on every call: the view of the active copies, made once (it looks
 * its copies up again on every read, so it survives rebalances and throws the same typed errors
 * `KafkaStreams.store()` throws), or, inside a request answered from a standby copy, a view with
 * stale stores that reports the copies that answered (see {@link StoreReadContext}).
 */
export class LocalStoreView<T> {
  private active: T | undefined;
  private readonly activeView = (): T =>
    (this.active ??= this.streams.store(
      StoreQueryParameters.fromNameAndType(this.name, this.type),
    ));

  constructor(
    private readonly streams: KafkaStreams,
    private readonly name: string,
    private readonly type: QueryableStoreType<T>,
  ) {}

  /** The view the current request reads (throws what `KafkaStreams.store()` throws). */
  current(): T {
    return StoreReadContext.localStore(this.streams, this.name, this.type, this.activeView);
  }
}

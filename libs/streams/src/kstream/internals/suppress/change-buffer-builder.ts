import type { StoreBuilder } from '../../../processor/store-builder';
import type { Serde } from '../../../serde/serde';
import { StoreLayerSwitches } from '../../../state/internals/store-layer-switches';
import { TimeOrderedChangeBuffer } from './time-ordered-change-buffer';

/**
 * Builds a task's {@link TimeOrderedChangeBuffer} (Kafka Streams'
 * `InMemoryTimeOrderedKeyValueChangeBuffer.Builder`): never cached, change-logged (a compacted
 * key-value changelog) unless logging is disabled.
 */
export class ChangeBufferBuilder<K, V>
  extends StoreLayerSwitches
  implements StoreBuilder<TimeOrderedChangeBuffer<K, V>>
{
  readonly changelogKind = 'key-value' as const;

  constructor(
    readonly name: string,
    private readonly keySerde: Serde<K>,
    private readonly valueSerde: Serde<V>,
  ) {
    super(false);
  }

  get logConfig(): Readonly<Record<string, string>> {
    return this.topicConfig;
  }

  /** A suppression buffer is never cached: ignored. */
  override withCachingEnabled(): this {
    return this;
  }

  build(): TimeOrderedChangeBuffer<K, V> {
    return new TimeOrderedChangeBuffer(
      this.name,
      this.keySerde,
      this.valueSerde,
      this.loggingEnabled,
    );
  }
}

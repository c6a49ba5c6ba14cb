import type { StoreBuilder } from '../../../processor/store-builder';
import type { Serde } from '../../../serde/serde';
import { TimeOrderedChangeBuffer } from './time-ordered-change-buffer';

/**
 * Builds a task's {@link TimeOrderedChangeBuffer} (Kafka Streams'
 * `InMemoryTimeOrderedKeyValueChangeBuffer.Builder`): never cached, change-logged (a compacted
 * key-value changelog) unless logging is disabled.
 */
export class ChangeBufferBuilder<K, V> implements StoreBuilder<TimeOrderedChangeBuffer<K, V>> {
  readonly cachingEnabled = false;
  readonly changelogKind = 'key-value' as const;
  private logging = true;
  private topicConfig: Readonly<Record<string, string>> = {};

  constructor(
    readonly name: string,
    private readonly keySerde: Serde<K>,
    private readonly valueSerde: Serde<V>,
  ) {}

  get loggingEnabled(): boolean {
    return this.logging;
  }

  get logConfig(): Readonly<Record<string, string>> {
    return this.topicConfig;
  }

  /** A suppression buffer is never cached: ignored. */
  withCachingEnabled(): this {
    return this;
  }

  withCachingDisabled(): this {
    return this;
  }

  withLoggingEnabled(topicConfig: Readonly<Record<string, string>> = {}): this {
    this.logging = true;
    this.topicConfig = { ...topicConfig };
    return this;
  }

  withLoggingDisabled(): this {
    this.logging = false;
    this.topicConfig = {};
    return this;
  }

  build(): TimeOrderedChangeBuffer<K, V> {
    return new TimeOrderedChangeBuffer(this.name, this.keySerde, this.valueSerde, this.logging);
  }
}

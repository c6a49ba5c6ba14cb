import type { StateStore } from './state-store';

/**
 * Configures and builds one kind of state store, a new instance per task (Kafka Streams'
 * `StoreBuilder`). Logging is on and caching off unless changed, as in Kafka Streams.
 */
export interface StoreBuilder<T extends StateStore> {
  readonly name: string;
  readonly cachingEnabled: boolean;
  readonly loggingEnabled: boolean;
  /** Extra configs for the changelog topic. */
  readonly logConfig: Readonly<Record<string, string>>;
  /** Routes reads and writes through the process-wide record cache. */
  withCachingEnabled(): this;
  withCachingDisabled(): this;
  /** Mirrors every write to `<applicationId>-<name>-changelog`, with extra topic configs. */
  withLoggingEnabled(topicConfig?: Readonly<Record<string, string>>): this;
  /** No changelog: the store is not restored after a restart or a move. */
  withLoggingDisabled(): this;
  /** A new, unopened store (the task opens it with `init`). */
  build(): T;
}

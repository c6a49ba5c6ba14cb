/**
 * Kafka Streams' private settings (`StreamsConfig.InternalConfig`), read by the DSL's
 * processors from `ProcessorContext.appConfigs` under Kafka's own names. Not part of the
 * public `StreamsConfig`: the TopologyTestDriver sets both emit intervals to 0, as Kafka
 * Streams' driver does, so that tests see results at the record that makes them due.
 */
export const InternalConfig = {
  /** How often (wall clock, ms) a left/outer stream-stream join looks for results to emit. Default 1000. */
  EMIT_INTERVAL_MS_KSTREAMS_OUTER_JOIN_SPURIOUS_RESULTS_FIX:
    '__emit.interval.ms.kstreams.outer.join.spurious.results.fix__',
  /** How often (wall clock, ms) an emit-on-window-close aggregation looks for closed windows. Default 1000. */
  EMIT_INTERVAL_MS_KSTREAMS_WINDOWED_AGGREGATION:
    '__emit.interval.ms.kstreams.windowed.aggregation__',
  /**
   * Where a host running global stores hands them to the tasks' processors when its
   * `getStateStore` does not resolve them: a `ReadonlyMap` of store name to opened store (the
   * TopologyTestDriver and `KafkaStreams` set it; not a Kafka setting).
   */
  GLOBAL_STATE_STORES: '__global.state.stores__',
} as const;

/**
 * The internal setting `key` of `appConfigs` as a number of ms: a number, or a string of
 * digits, else `defaultValue`.
 */
export function internalLong(
  appConfigs: { readonly [name: string]: unknown },
  key: string,
  defaultValue: number,
): number {
  const value = appConfigs[key];
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return Number(value);
  return defaultValue;
}

/**
 * The global stores a host hands its tasks (`InternalConfig.GLOBAL_STATE_STORES`), when it
 * runs any: what `getStateStore` answers for a store no processor connects.
 */
export function globalStoresOf(configs: object): ReadonlyMap<string, unknown> | undefined {
  const stores = (configs as { readonly [name: string]: unknown })[
    InternalConfig.GLOBAL_STATE_STORES
  ];
  return stores instanceof Map ? (stores as ReadonlyMap<string, unknown>) : undefined;
}

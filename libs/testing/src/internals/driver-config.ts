import { InternalConfig, resolveStreamsConfig } from '@nest-streams/streams/internals';
import type { StateStore, StreamsConfig } from '@nest-streams/streams';

/** The driver's streams settings: test defaults under `config`, the state in `stateDir`. */
export function driverConfig(config: Partial<StreamsConfig> | undefined, stateDir: string) {
  return resolveStreamsConfig({
    applicationId: 'topology-test-driver',
    bootstrapServers: ['dummy:1234'],
    ...config,
    stateDir,
  });
}

/**
 * The tasks' configuration: `config` and, as in Kafka Streams' driver, both emit intervals of
 * the DSL at 0 (left/outer join results and windows closing are emitted at the record that
 * makes them due, not once per second of the mocked wall clock), and the opened global stores
 * for the processors that read them.
 */
export function driverTaskConfig(
  config: ReturnType<typeof driverConfig>,
  globalStores: ReadonlyMap<string, StateStore>,
) {
  return {
    ...config,
    [InternalConfig.EMIT_INTERVAL_MS_KSTREAMS_OUTER_JOIN_SPURIOUS_RESULTS_FIX]: 0,
    [InternalConfig.EMIT_INTERVAL_MS_KSTREAMS_WINDOWED_AGGREGATION]: 0,
    [InternalConfig.GLOBAL_STATE_STORES]: globalStores,
  };
}

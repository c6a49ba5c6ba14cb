/**
 * Testing without a broker: `TopologyTestDriver` for a topology, `StreamsTestingModule` for a
 * Nest application's streams.
 *
 * @module @nest-streams/testing
 */
export * from './topology-test-driver';
export type { DriverMetrics } from './driver-metrics';
export * from './test-input-topic';
export * from './test-output-topic';
export * from './test-record';
export * from './streams-testing.module';
export * from './commit-phases';

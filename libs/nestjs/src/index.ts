/**
 * The Nest module: `StreamsModule`, the decorators that declare stores and aggregations, store
 * facades, `InteractiveQueryService`, key routing across instances, health and metrics.
 *
 * @module @nest-streams/nestjs
 */
// The public API of @nest-streams/nestjs: everything a Nest application imports. The rest of
// the package (discovery, forwarding, instance-to-instance queries, ...) is under internals/.

// Module
export { StreamsModule } from './streams.module';
export type {
  StreamsModuleForRootAsyncOptions,
  StreamsModuleForRootOptions,
} from './streams-module.definition';
export type {
  CustomRemoteQueryOptions,
  RemoteQueryOptions,
  StreamsClientOptions,
  StreamsDashboardOptions,
  StreamsEngineOptions,
  StreamsHealthOptions,
  StreamsHttpOptions,
  StreamsManagementOptions,
  StreamsMetricsOptions,
  StreamsModuleExtras,
  StreamsModuleOptions,
  StreamsQueriesOptions,
  StreamsSecurityOptions,
  StreamsShutdownOptions,
  StreamsStartMode,
  StreamsTlsOptions,
  TcpRemoteQueryOptions,
} from './settings/streams-module-options.interface';

export { KAFKA_STREAMS_FACTORY } from './streams.constants';
export type { KafkaStreamsFactory } from './client/kafka-streams.factory';

// Decorators
export {
  StateStore,
  type StateStoreKind,
  type StateStoreEngine,
  type StateStoreOptions,
} from './decorators/state-store.decorator';
export { InjectStore, getStoreToken } from './decorators/inject-store.decorator';
export { Aggregate, type AggregateOptions } from './decorators/aggregate.decorator';
export { Count, type CountOptions } from './decorators/count.decorator';
export { Reduce, type ReduceOptions } from './decorators/reduce.decorator';
export type {
  AggregationDecorator,
  AggregationSourceOptions,
} from './decorators/aggregation.types';
export { Topology } from './decorators/topology.decorator';
export type { TopologyContext } from './discovery/topology-context';
export { RocksDBConfig } from './decorators/rocksdb-config.decorator';
export {
  RouteByKey,
  type KeyFrom,
  type RouteByKeyOptions,
  type RoutedRequest,
} from './decorators/route-by-key.decorator';

// Stores and queries
export { KeyValueStoreFacade } from './queries/key-value-store.facade';
export { WindowStoreFacade } from './queries/window-store.facade';
export { SessionStoreFacade } from './queries/session-store.facade';
export {
  InteractiveQueryService,
  type InstanceQueryFailure,
  type KeyQueryOptions,
  type ScatterGatherResult,
  type ScatterQueryOptions,
} from './queries/interactive-query.service';

// HTTP
export { StoreRoutingInterceptor } from './routing/store-routing.interceptor';
export { StreamsExceptionFilter } from './http/streams-exception.filter';
export {
  RetryingHttpClient,
  type HttpAnswer,
  type HttpCall,
  type RetryingHttpClientOptions,
} from './http/retrying-http.client';
export {
  LAG_HEADER,
  RETRY_AFTER_HEADER,
  SERVED_BY_HEADER,
  STALE_HEADER,
} from './streams.constants';

// Health and metrics
export {
  StreamsHealthIndicator,
  type StoreHealthDetail,
  type StreamsHealthDetails,
} from './health/streams-health.indicator';
export { StreamsTerminusLogger } from './health/streams-terminus.logger';
export { StreamsMetricsService, type RoutingOutcome } from './metrics/streams-metrics.service';

// Errors
export { DuplicateStateStoreError } from './errors/duplicate-state-store.error';
export { UndeclaredStateStoreError } from './errors/undeclared-state-store.error';
export { RequestScopedStreamsProviderError } from './errors/request-scoped-streams-provider.error';
export { InvalidStreamsDeclarationError } from './errors/invalid-streams-declaration.error';
export { StoreKindMismatchError } from './errors/store-kind-mismatch.error';
export { ConflictingSourceSerdesError } from './errors/conflicting-source-serdes.error';
export { StreamsModuleConfigError } from './errors/streams-module-config.error';
export { RemoteQueryError } from './errors/remote-query.error';
export { OwnerUnreachableError } from './errors/owner-unreachable.error';

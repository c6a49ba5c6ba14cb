// The public surface of @nest-streams/nestjs: named exports only.
export { StreamsModule } from './streams.module';
export type {
  StreamsModuleForRootAsyncOptions,
  StreamsModuleForRootOptions,
} from './streams-module.definition';
export type {
  CustomRemoteQueryOptions,
  RemoteQueryOptions,
  StreamsMetricsOptions,
  StreamsModuleExtras,
  StreamsModuleOptions,
  TcpRemoteQueryOptions,
} from './streams-module-options.interface';
export { StreamsModuleSettings } from './streams-module.settings';
export { StreamsRuntime } from './streams.runtime';
export { KafkaStreamsHost } from './kafka-streams.host';
export {
  FORWARDED_HEADER,
  HOP_TOKEN_HEADER,
  LAG_HEADER,
  RETRY_AFTER_HEADER,
  SERVED_BY_HEADER,
  STALE_HEADER,
  STANDBY_READ_HEADER,
  STREAMS_MODULE_OPTIONS,
} from './streams.constants';

// Decorators
export {
  StateStore,
  type StateStoreDeclaration,
  type StateStoreKind,
  type StateStoreOptions,
} from './decorators/state-store.decorator';
export { InjectStore, getStoreToken } from './decorators/inject-store.decorator';
export { Aggregate, type AggregateOptions } from './decorators/aggregate.decorator';
export { Count, type CountOptions } from './decorators/count.decorator';
export { Reduce, type ReduceOptions } from './decorators/reduce.decorator';
export type { AggregationSourceOptions } from './decorators/aggregation.types';
export { Topology } from './decorators/topology.decorator';
export { RocksDBConfig } from './decorators/rocksdb-config.decorator';
export {
  RouteByKey,
  type KeyFrom,
  type RouteByKeyOptions,
  type RoutedRequest,
} from './decorators/route-by-key.decorator';
export type { TopologyContext } from './discovery/topology-context';
export { StreamsMetadataAccessor } from './discovery/streams-metadata.accessor';
export { StreamsExplorer } from './discovery/streams.explorer';

// Stores and queries
export { KeyValueStoreFacade } from './queries/key-value-store.facade';
export { WindowStoreFacade } from './queries/window-store.facade';
export { SessionStoreFacade } from './queries/session-store.facade';
export { StoreReadContext, type StoreReadOptions } from './queries/store-read-context';
export {
  InteractiveQueryService,
  type InstanceQueryFailure,
  type KeyQueryOptions,
  type ScatterGatherResult,
  type ScatterQueryOptions,
} from './queries/interactive-query.service';
export { InteractiveQueryServer } from './queries/interactive-query.server';
export { InteractiveQueryClient } from './queries/interactive-query.client';
export type {
  QueryFailure,
  RemoteQueryRequest,
  RemoteQueryResponse,
} from './queries/interactive-query.protocol';
export { toWire, fromWire, type WireValue } from './queries/wire-codec';

// HTTP
export { StoreRoutingInterceptor } from './routing/store-routing.interceptor';
export {
  decideRoute,
  decideStandby,
  type RouteDecision,
  type StandbyDecision,
} from './routing/route-decision';
export { KeyOwnerLocator, type KeyLocation } from './routing/key-owner.locator';
export { HttpRequestForwarder } from './routing/http-request.forwarder';
export { HopAuthenticator, type TrustedHop } from './routing/hop-authenticator';
export { StreamsExceptionFilter, httpStatusOf } from './http/streams-exception.filter';
export {
  RetryingHttpClient,
  type HttpAnswer,
  type HttpCall,
  type RetryingHttpClientOptions,
} from './http/retrying-http.client';

// Health and metrics
export {
  StreamsHealthIndicator,
  type StoreHealthDetail,
  type StreamsHealthDetails,
} from './health/streams-health.indicator';
export { StreamsStateTracker, type RestoreProgress } from './health/streams-state.tracker';
export { StreamsMetricsService, type RoutingOutcome } from './metrics/streams-metrics.service';

// Errors
export { DuplicateStateStoreError } from './errors/duplicate-state-store.error';
export { UndeclaredStateStoreError } from './errors/undeclared-state-store.error';
export { RequestScopedStreamsProviderError } from './errors/request-scoped-streams-provider.error';
export { InvalidStreamsDeclarationError } from './errors/invalid-streams-declaration.error';
export { ConflictingSourceSerdesError } from './errors/conflicting-source-serdes.error';
export { StreamsModuleConfigError } from './errors/streams-module-config.error';
export { RemoteQueryError } from './errors/remote-query.error';
export { OwnerUnreachableError } from './routing/owner-unreachable.error';

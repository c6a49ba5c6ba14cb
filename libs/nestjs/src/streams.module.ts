import { Module, type DynamicModule } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { KafkaStreams } from '@nest-streams/streams';
import { ClusterViewBuilder } from './dashboard/internals/cluster-view.builder';
import { DashboardApi } from './dashboard/internals/dashboard.api';
import { FiguresSampler } from './dashboard/internals/figures-sampler';
import { InstanceReporter } from './dashboard/internals/instance-reporter';
import { KeyInspector } from './dashboard/internals/key-inspector';
import { ManagementServer } from './management/internals/management.server';
import { StreamsMetadataAccessor } from './discovery/internals/streams-metadata.accessor';
import { StreamsExplorer } from './discovery/internals/streams.explorer';
import { StreamsHealthIndicator } from './health/streams-health.indicator';
import { StreamsStateTracker } from './health/internals/streams-state.tracker';
import { ServedByListener } from './http/internals/served-by.listener';
import { RequestReadContextListener } from './queries/internals/request-read-context.listener';
import { StreamsExceptionFilter } from './http/streams-exception.filter';
import { KafkaStreamsHost } from './client/internals/kafka-streams.host';
import { StreamsMetricsService } from './metrics/streams-metrics.service';
import { InteractiveQueryClient } from './queries/internals/interactive-query.client';
import { InteractiveQueryServer } from './queries/internals/interactive-query.server';
import { InteractiveQueryService } from './queries/interactive-query.service';
import { storeFacadeProviders } from './queries/internals/store-facade.providers';
import {
  HopAuthenticator,
  instanceAuthenticatorProvider,
} from './security/internals/hop-authenticator';
import { HttpRequestForwarder } from './routing/internals/http-request.forwarder';
import { KeyOwnerLocator } from './ownership/internals/key-owner.locator';
import { StoreRoutingInterceptor } from './routing/store-routing.interceptor';
import { StoreRouter } from './routing/store-router';
import { RoutedHandlersBinder } from './routing/internals/routed-handlers.binder';
import {
  ConfigurableStreamsModule,
  type StreamsModuleForRootAsyncOptions,
  type StreamsModuleForRootOptions,
} from './streams-module.definition';
import { StreamsModuleSettings } from './settings/internals/streams-module.settings';
import { StreamsRuntime } from './streams.runtime';
import { INSTANCE_REPORT_SOURCE } from './streams.constants';

const SHARED = [
  StreamsModuleSettings,
  StreamsMetadataAccessor,
  KafkaStreamsHost,
  StreamsStateTracker,
  StreamsMetricsService,
  KeyOwnerLocator,
  HttpRequestForwarder,
  HopAuthenticator,
  StoreRouter,
  StoreRoutingInterceptor,
  StreamsExceptionFilter,
  InteractiveQueryClient,
  InteractiveQueryService,
  StreamsHealthIndicator,
];

/**
 * Kafka Streams' stateful core as a Nest module (global by default).
 *
 * `StreamsModule.forRoot(options)` / `forRootAsync({ imports, inject, useFactory | useClass |
 * useExisting })`: the options (`StreamsModuleOptions`) carry the engine's settings under
 * `streams` and one key per part of the module (`http`, `queries`, `metrics`, `health`,
 * `shutdown`, `client`, `security`, `dashboard`, `management`); `isGlobal` sits beside them. The module finds the decorated
 * parts (`@StateStore`, `@Aggregate`, `@Count`, `@Reduce`, `@Topology()`, `@RocksDBConfig()`),
 * builds the topology and creates `KafkaStreams` at module init, starts it on application
 * bootstrap (in the background by default: HTTP serves the probes while it connects and
 * restores) and closes it cleanly on shutdown (call `app.enableShutdownHooks()` so SIGTERM
 * closes it: flush, checkpoint, leave the group).
 *
 * Injectable: `KafkaStreams`, `InteractiveQueryService`, `StreamsHealthIndicator`,
 * `StreamsMetricsService`, store facades (`@InjectStore(name)`). Unless `http.global: false`,
 * `@RouteByKey` handlers route their requests (no interceptor on any route), every request's
 * store reads are recorded (`X-Stale`/`X-Lag` when a standby copy answers) and
 * `StreamsExceptionFilter` answers for every route; it serves Prometheus metrics when `metrics.endpoint` names a path, the cluster page
 * when `dashboard` is on and the cluster's layout with `management.metadataEndpoint`: as routes
 * of the application, or on the management server alone with `management.port`.
 *
 * @example
 * StreamsModule.forRootAsync({
 *   imports: [ConfigModule],
 *   inject: [ConfigService],
 *   useFactory: (config: ConfigService) => ({
 *     streams: {
 *       applicationId: 'labs-streams-app',
 *       bootstrapServers: config.getOrThrow<string>('KAFKA_BROKERS').split(','),
 *       applicationServer: `127.0.0.1:${config.get('PORT')}`,
 *     },
 *     queries: { remote: { port: Number(config.get('QUERY_PORT')) } },
 *   }),
 * })
 *
 * Errors at start-up (they fail `app.init()`/`app.listen()`): invalid options
 * (`StreamsConfigError`, `StreamsModuleConfigError`), invalid declarations, and with
 * `client.start: 'blocking'` the client's start errors; see `StreamsRuntime`.
 */
@Module({
  imports: [DiscoveryModule, TerminusModule],
  providers: [
    ...SHARED,
    instanceAuthenticatorProvider,
    StreamsExplorer,
    InteractiveQueryServer,
    ServedByListener,
    RequestReadContextListener,
    RoutedHandlersBinder,
    StreamsRuntime,
    FiguresSampler,
    InstanceReporter,
    { provide: INSTANCE_REPORT_SOURCE, useExisting: InstanceReporter },
    ClusterViewBuilder,
    KeyInspector,
    DashboardApi,
    ManagementServer,
    {
      provide: KafkaStreams,
      useFactory: (host: KafkaStreamsHost) => host.proxy(),
      inject: [KafkaStreamsHost],
    },
  ],
  exports: [...SHARED, KafkaStreams],
})
export class StreamsModule extends ConfigurableStreamsModule {
  static forRoot(options: StreamsModuleForRootOptions): DynamicModule {
    return withStoreFacades(super.forRoot(options));
  }

  static forRootAsync(options: StreamsModuleForRootAsyncOptions): DynamicModule {
    return withStoreFacades(super.forRootAsync(options));
  }
}

/**
 * Adds the store facade providers when Nest scans the module (not when `forRoot` runs), so
 * every `@InjectStore` of the application is seen, wherever its file is imported from.
 */
function withStoreFacades(module: DynamicModule): DynamicModule {
  const providers = module.providers ?? [];
  const exports = module.exports ?? [];
  const result: DynamicModule = { ...module };
  Object.defineProperty(result, 'providers', {
    enumerable: true,
    get: () => [...providers, ...storeFacadeProviders()],
  });
  Object.defineProperty(result, 'exports', {
    enumerable: true,
    get: () => [...exports, ...storeFacadeProviders().map((p) => p.provide)],
  });
  return result;
}

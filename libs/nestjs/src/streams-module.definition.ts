import { ConfigurableModuleBuilder, type DynamicModule, type Provider } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { StreamsExceptionFilter } from './http/streams-exception.filter';
import { disabledExceptionFilter } from './http/internals/disabled-exception.filter';
import { createDashboardController } from './dashboard/internals/dashboard.controller';
import { createMetricsController } from './metrics/internals/streams-metrics.controller';
import { createClusterLayoutController } from './management/internals/cluster-layout.controller';
import { StreamsModuleSettings } from './settings/internals/streams-module.settings';
import { STREAMS_MODULE_OPTIONS } from './streams.constants';
import type {
  StreamsModuleExtras,
  StreamsModuleOptions,
} from './settings/streams-module-options.interface';

const DEFAULT_EXTRAS: StreamsModuleExtras = { isGlobal: true };

/**
 * The `StreamsModule` definition: `forRoot(options)` and `forRootAsync({ imports, inject,
 * useFactory | useClass | useExisting })` (a class given to `useClass` implements
 * `createStreamsOptions()`), plus the static extra `isGlobal`.
 *
 * Everything else is decided from the options once they are resolved (so `forRootAsync` takes
 * the same shape as `forRoot`): the global filter, `@RouteByKey`'s routing and the requests' read records follow `http.global`, the
 * metrics endpoint follows `metrics.endpoint`, the cluster page `dashboard`, the cluster's layout
 * `management.metadataEndpoint`, and where all three are served `management.port`.
 */
export const {
  ConfigurableModuleClass: ConfigurableStreamsModule,
  OPTIONS_TYPE: STREAMS_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: STREAMS_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<StreamsModuleOptions>({
  moduleName: 'Streams',
  optionsInjectionToken: STREAMS_MODULE_OPTIONS,
})
  .setClassMethodName('forRoot')
  .setFactoryMethodName('createStreamsOptions')
  .setExtras<StreamsModuleExtras>(DEFAULT_EXTRAS, (definition, extras) => {
    const providers: Provider[] = [
      ...(definition.providers ?? []),
      {
        provide: APP_FILTER,
        useFactory: (settings: StreamsModuleSettings, filter: StreamsExceptionFilter) =>
          settings.http.global ? filter : disabledExceptionFilter,
        inject: [StreamsModuleSettings, StreamsExceptionFilter],
      },
    ];
    const module: DynamicModule = {
      ...definition,
      global: extras.isGlobal !== false,
      providers,
      controllers: [
        ...(definition.controllers ?? []),
        createMetricsController(),
        createDashboardController(),
        createClusterLayoutController(),
      ],
    };
    return module;
  })
  .build();

/** What `StreamsModule.forRoot()` takes: the module options plus the definition extras. */
export type StreamsModuleForRootOptions = typeof STREAMS_OPTIONS_TYPE;
/** What `StreamsModule.forRootAsync()` takes. */
export type StreamsModuleForRootAsyncOptions = typeof STREAMS_ASYNC_OPTIONS_TYPE;

import { ConfigurableModuleBuilder, type DynamicModule, type Provider } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR } from '@nestjs/core';
import { StreamsExceptionFilter } from './http/streams-exception.filter';
import { createMetricsController } from './metrics/internals/streams-metrics.controller';
import { StoreRoutingInterceptor } from './routing/store-routing.interceptor';
import { STREAMS_MODULE_OPTIONS } from './internals/streams.constants';
import type { StreamsModuleExtras, StreamsModuleOptions } from './streams-module-options.interface';

const DEFAULT_EXTRAS: StreamsModuleExtras = {
  isGlobal: true,
  metricsPath: 'metrics',
  globalHttp: true,
};

/**
 * The `StreamsModule` definition: `forRoot(options)` and `forRootAsync({ imports, inject,
 * useFactory | useClass | useExisting })` (a class given to `useClass` implements
 * `createStreamsOptions()`), plus the static extras `isGlobal`, `metricsPath`, `globalHttp`.
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
    const settings = { ...DEFAULT_EXTRAS, ...extras };
    const providers: Provider[] = [...(definition.providers ?? [])];
    if (settings.globalHttp !== false) {
      providers.push(
        { provide: APP_INTERCEPTOR, useExisting: StoreRoutingInterceptor },
        { provide: APP_FILTER, useExisting: StreamsExceptionFilter },
      );
    }
    const controllers =
      typeof settings.metricsPath === 'string'
        ? [...(definition.controllers ?? []), createMetricsController(settings.metricsPath)]
        : definition.controllers;
    const module: DynamicModule = {
      ...definition,
      global: settings.isGlobal !== false,
      providers,
      controllers,
    };
    return module;
  })
  .build();

/** What `StreamsModule.forRoot()` takes: the module options plus the definition extras. */
export type StreamsModuleForRootOptions = typeof STREAMS_OPTIONS_TYPE;
/** What `StreamsModule.forRootAsync()` takes. */
export type StreamsModuleForRootAsyncOptions = typeof STREAMS_ASYNC_OPTIONS_TYPE;

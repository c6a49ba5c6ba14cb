import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { StreamsMetadataAccessor } from '../../discovery/internals/streams-metadata.accessor';
import { StreamsModuleSettings } from '../../settings/internals/streams-module.settings';
import { StoreRouter } from '../store-router';
import { bindRoutedHandlers, type HandlerRouter } from '../../decorators/internals/routed-handler';

/**
 * With `http.global` (the default), binds the module's {@link StoreRouter} to every controller
 * that has a `@RouteByKey` handler, so that those handlers route their requests: each singleton
 * controller instance, and the prototype of a request-scoped one (a new instance per request).
 * With `http.global: false` nothing is bound and the handlers run as they are, unless the
 * application attaches `StoreRoutingInterceptor`.
 */
@Injectable()
export class RoutedHandlersBinder implements OnModuleInit {
  constructor(
    @Inject(DiscoveryService) private readonly discovery: DiscoveryService,
    @Inject(MetadataScanner) private readonly scanner: MetadataScanner,
    @Inject(StreamsMetadataAccessor) private readonly accessor: StreamsMetadataAccessor,
    @Inject(StreamsModuleSettings) private readonly settings: StreamsModuleSettings,
    @Inject(StoreRouter) private readonly router: StoreRouter,
  ) {}

  onModuleInit(): void {
    if (!this.settings.http.global) return;
    const router = this.router as HandlerRouter<unknown>;
    for (const wrapper of this.discovery.getControllers()) {
      const type = wrapper.metatype as (new (...args: never[]) => object) | undefined;
      const prototype = type?.prototype as Record<string, unknown> | undefined;
      if (!prototype || !this.routes(prototype)) continue;
      const instance: unknown = wrapper.instance;
      if (wrapper.isDependencyTreeStatic() && instance !== null && typeof instance === 'object') {
        bindRoutedHandlers(instance, router);
      } else {
        bindRoutedHandlers(prototype, router);
      }
    }
  }

  /** Whether one of the methods of `prototype` is a `@RouteByKey` handler. */
  private routes(prototype: Record<string, unknown>): boolean {
    return this.scanner.getAllMethodNames(prototype).some((name) => {
      const method = prototype[name];
      return typeof method === 'function' && this.accessor.getRouteByKey(method) !== undefined;
    });
  }
}

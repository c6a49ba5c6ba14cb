import { Controller, Header, Inject, type Type } from '@nestjs/common';
import { Registry } from 'prom-client';
import { routeGetHandlers } from '../../decorators/run-time-routes';
import { StreamsModuleSettings } from '../../settings/internals/streams-module.settings';
import { StreamsMetricsService } from '../streams-metrics.service';

/**
 * The Prometheus endpoint (`GET /<metrics.endpoint>`) on the application's HTTP server, one
 * class per module definition. Its route exists only when `metrics.endpoint` names a path and
 * no `management.port` is set (the management server serves it then): the constructor, run
 * when Nest creates the application (after `forRootAsync` options are resolved, before routes
 * are registered), puts the path on the class and the `GET` on its handler.
 */
export function createMetricsController(): Type<unknown> {
  @Controller()
  class StreamsMetricsController {
    constructor(
      @Inject(StreamsMetricsService) private readonly metrics: StreamsMetricsService,
      @Inject(StreamsModuleSettings) settings: StreamsModuleSettings,
    ) {
      const path = settings.metrics.endpoint;
      if (path === undefined || settings.management.port !== undefined) return;
      routeGetHandlers(StreamsMetricsController, path, { scrape: '/' });
    }

    @Header('Content-Type', Registry.PROMETHEUS_CONTENT_TYPE)
    scrape(): Promise<string> {
      return this.metrics.metrics();
    }
  }
  return StreamsMetricsController;
}

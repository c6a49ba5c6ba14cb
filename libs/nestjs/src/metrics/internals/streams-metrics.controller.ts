import { Controller, Get, Header, Inject, NotFoundException, type Type } from '@nestjs/common';
import { Registry } from 'prom-client';
import { StreamsMetricsService } from '../streams-metrics.service';

/**
 * The Prometheus endpoint (`GET /<metricsPath>`, default `/metrics`), registered by
 * `StreamsModule` unless `metricsPath: false`. Answers 404 when metrics are off.
 */
export function createMetricsController(path: string): Type<unknown> {
  @Controller(path)
  class StreamsMetricsController {
    constructor(@Inject(StreamsMetricsService) private readonly metrics: StreamsMetricsService) {}

    @Get()
    @Header('Content-Type', Registry.PROMETHEUS_CONTENT_TYPE)
    scrape(): Promise<string> {
      if (!this.metrics.isEnabled) throw new NotFoundException('metrics are turned off');
      return this.metrics.metrics();
    }
  }
  return StreamsMetricsController;
}

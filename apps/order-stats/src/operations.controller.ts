import { Controller, Get, Inject } from '@nestjs/common';
import { HealthCheck, HealthCheckService } from '@nestjs/terminus';
import { StreamsHealthIndicator } from '@nest-streams/nestjs';

/**
 * Health for Kubernetes probes. (`GET /streams/metadata`, the cluster's layout, is the
 * module's `management.metadataEndpoint`: see app.module.ts.)
 */
@Controller()
export class OperationsController {
  constructor(
    @Inject(HealthCheckService) private readonly health: HealthCheckService,
    @Inject(StreamsHealthIndicator) private readonly streamsHealth: StreamsHealthIndicator,
  ) {}

  /** Kubernetes startupProbe: 200 once the first assignment is restored. */
  @Get('health/started')
  @HealthCheck()
  started() {
    return this.health.check([() => this.streamsHealth.isStarted('streams')]);
  }

  /**
   * Kubernetes readinessProbe: 200 while this instance can take requests (also during a
   * rebalance, after its first restore); 503 while starting, shutting down or failed.
   */
  @Get('health/ready')
  @HealthCheck()
  ready() {
    return this.health.check([() => this.streamsHealth.isReady('streams')]);
  }

  /** Kubernetes livenessProbe: 503 only when the process must be restarted. */
  @Get('health/live')
  @HealthCheck()
  live() {
    return this.health.check([() => this.streamsHealth.isLive('streams')]);
  }
}

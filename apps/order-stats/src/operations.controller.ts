import { Controller, Get, Inject, NotFoundException } from '@nestjs/common';
import { HealthCheck, HealthCheckService } from '@nestjs/terminus';
import { StreamsHealthIndicator } from '@nest-streams/nestjs';
import { KafkaStreams } from '@nest-streams/streams';
import { clusterMetadata } from './cluster-metadata';
import { ORDER_STATS_CONFIG, type OrderStatsConfig } from './order-stats.config';

/** Health for Kubernetes probes, and the cluster's metadata. */
@Controller()
export class OperationsController {
  constructor(
    @Inject(HealthCheckService) private readonly health: HealthCheckService,
    @Inject(StreamsHealthIndicator) private readonly streamsHealth: StreamsHealthIndicator,
    @Inject(KafkaStreams) private readonly streams: KafkaStreams,
    @Inject(ORDER_STATS_CONFIG) private readonly config: OrderStatsConfig,
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

  /**
   * Every instance, its active and standby partitions per store, and this instance's lags.
   * With `MANAGEMENT_PORT` set, served on the management port only (404 here).
   */
  @Get('streams/metadata')
  async metadata() {
    if (this.config.managementPort !== undefined) throw new NotFoundException();
    return clusterMetadata(this.streams);
  }
}

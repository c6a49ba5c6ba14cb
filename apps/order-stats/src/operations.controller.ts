import { Controller, Get, Inject } from '@nestjs/common';
import { HealthCheck, HealthCheckService } from '@nestjs/terminus';
import { StreamsHealthIndicator } from '@nest-streams/nestjs';
import { KafkaStreams } from '@nest-streams/streams';

/** Health for Kubernetes probes, and the cluster's metadata. */
@Controller()
export class OperationsController {
  constructor(
    @Inject(HealthCheckService) private readonly health: HealthCheckService,
    @Inject(StreamsHealthIndicator) private readonly streamsHealth: StreamsHealthIndicator,
    @Inject(KafkaStreams) private readonly streams: KafkaStreams,
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

  /** Every instance, its active and standby partitions per store, and this instance's lags. */
  @Get('streams/metadata')
  async metadata() {
    const lags = await this.streams.allLocalStorePartitionLags();
    const partitions = (list: readonly { topic: string; partition: number }[]) =>
      [...new Set(list.map((p) => p.partition))].sort((a, b) => a - b);
    return {
      state: this.streams.state,
      instances: this.streams.metadataForAllStreamsClients().map((m) => ({
        host: m.hostInfo.toString(),
        stores: Object.fromEntries(
          [...new Set([...m.stateStoreNames, ...m.standbyStateStoreNames])].map((store) => [
            store,
            {
              active: m.stateStoreNames.includes(store) ? partitions(m.topicPartitions) : [],
              standby: m.standbyStateStoreNames.includes(store)
                ? partitions(m.standbyTopicPartitions)
                : [],
            },
          ]),
        ),
      })),
      lags: Object.fromEntries(
        [...lags].map(([store, perPartition]) => [store, Object.fromEntries(perPartition)]),
      ),
      metrics: this.streams.metrics(),
    };
  }
}

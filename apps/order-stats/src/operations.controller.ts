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

  /** 200 only when RUNNING with every active store restored; 503 with per-store details otherwise. */
  @Get('health/ready')
  @HealthCheck()
  ready() {
    return this.health.check([() => this.streamsHealth.isReady('streams')]);
  }

  /** Down only in ERROR or NOT_RUNNING, never because of a rebalance. */
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

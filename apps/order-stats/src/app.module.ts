import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { StreamsModule, StreamsTerminusLogger } from '@nest-streams/nestjs';
import {
  logAndContinue,
  logAndContinueProcessing,
  sendToDeadLetterTopic,
} from '@nest-streams/streams';
import { ORDER_STATS_CONFIG, orderStatsConfig } from './order-stats.config';
import { OrderStatsAggregation } from './order-stats.aggregation';
import { OrderStatsRocksDBConfig } from './order-stats.rocksdb-config';
import { StatsController } from './stats.controller';
import { WindowedController } from './windowed.controller';
import { OperationsController } from './operations.controller';

const config = orderStatsConfig();

/** The order-stats service: the example application on the Nest module. */
@Module({
  imports: [
    // The streams indicator logs each probe's answer when it changes: terminus logs only
    // other failed checks (not one error per probe while the stores restore).
    TerminusModule.forRoot({ logger: StreamsTerminusLogger }),
    StreamsModule.forRoot({
      streams: {
        applicationId: config.applicationId,
        bootstrapServers: config.brokers,
        applicationServer: config.applicationServer,
        stateDir: config.stateDir,
        numStandbyReplicas: config.numStandbyReplicas,
        processingGuarantee: config.processingGuarantee,
        commitIntervalMs: config.commitIntervalMs,
        sessionTimeoutMs: config.sessionTimeoutMs,
        taskTimeoutMs: config.taskTimeoutMs,
        heartbeatIntervalMs: 1_000,
        deserializationExceptionHandler: config.deadLetterTopic
          ? sendToDeadLetterTopic(config.deadLetterTopic)
          : logAndContinue(),
        // A record the aggregation refuses (see OrderStatsAggregation) is skipped, never a crash
        // loop; with DEAD_LETTER_TOPIC it goes there too (KIP-1033, KIP-1034).
        processingExceptionHandler: logAndContinueProcessing(),
        deadLetterQueueTopic: config.deadLetterTopic,
        metricsRecordingLevel: config.metricsRecordingLevel,
        kafkaClient: config.kafkaClient,
        rebalanceProtocol: config.rebalanceProtocol,
        groupInstanceId: config.groupInstanceId, // static membership (GROUP_INSTANCE_ID)
        groupProtocol: config.groupProtocol,
        kafka: config.security.kafka, // TLS and SASL to the brokers (KAFKA_SECURITY_PROTOCOL...)
      },
      http: {
        servedByHeader: true,
        retryAfterSeconds: 2,
        forwardingTimeoutMs: config.forwardingTimeoutMs,
      },
      queries: {
        allowStaleReads: config.allowStaleReads,
        remote: { port: config.queryPort, host: config.host },
      },
      metrics: { endpoint: 'metrics' },
      shutdown: { drainMs: config.shutdownDrainMs },
      security: {
        // FORWARDING_SECRET, a comma list during a rotation (the first signs, any verifies).
        clusterSecret: config.forwardingSecrets.length > 0 ? config.forwardingSecrets : undefined,
        insecure: config.security.insecure,
        tls: config.security.clusterTls,
      },
      // The key look-up only with DASHBOARD_LOOKUP=true.
      dashboard: { path: 'streams/ui', lookup: config.dashboardLookup },
      // /metrics, the cluster page and /streams/metadata: on MANAGEMENT_PORT alone when it is
      // set, else routes of PORT.
      management: {
        port: config.managementPort,
        host: config.host,
        metadataEndpoint: 'streams/metadata',
      },
    }),
  ],
  providers: [
    OrderStatsAggregation,
    OrderStatsRocksDBConfig,
    { provide: ORDER_STATS_CONFIG, useValue: config },
  ],
  controllers: [StatsController, WindowedController, OperationsController],
})
export class AppModule {}

import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { StreamsModule } from '@nest-streams/nestjs';
import { logAndContinue, sendToDeadLetterTopic } from '@nest-streams/streams';
import { orderStatsConfig } from './order-stats.config';
import { OrderStatsAggregation } from './order-stats.aggregation';
import { OrderStatsRocksDBConfig } from './order-stats.rocksdb-config';
import { StatsController } from './stats.controller';
import { WindowedController } from './windowed.controller';
import { OperationsController } from './operations.controller';

const config = orderStatsConfig();
const warn = (message: string): void => {
  process.stderr.write(`${message}\n`);
};

/** The order-stats service: the source text's application on the Nest module. */
@Module({
  imports: [
    TerminusModule,
    StreamsModule.forRoot({
      applicationId: config.applicationId,
      bootstrapServers: config.brokers,
      applicationServer: config.applicationServer,
      stateDir: config.stateDir,
      numStandbyReplicas: config.numStandbyReplicas,
      processingGuarantee: config.processingGuarantee,
      commitIntervalMs: config.commitIntervalMs,
      sessionTimeoutMs: 10_000,
      heartbeatIntervalMs: 1_000,
      deserializationExceptionHandler: config.deadLetterTopic
        ? sendToDeadLetterTopic(config.deadLetterTopic, warn)
        : logAndContinue(warn),
      remoteQueries: { port: config.queryPort, host: config.host },
      allowStaleReads: config.allowStaleReads,
      forwardingSecret: config.forwardingSecret,
      forwardingTimeoutMs: config.forwardingTimeoutMs,
      retryAfterSeconds: 2,
      shutdown: { drainMs: config.shutdownDrainMs },
      logger: { info: () => undefined, warn },
    }),
  ],
  providers: [OrderStatsAggregation, OrderStatsRocksDBConfig],
  controllers: [StatsController, WindowedController, OperationsController],
})
export class AppModule {}

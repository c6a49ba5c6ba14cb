import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { KafkaStreams, KafkaStreamsState } from '@nest-streams/streams';
import { AppModule } from './app.module';
import { createApplication } from './http-platform';
import { orderStatsConfig } from './order-stats.config';

const logger = new Logger('OrderStats');

/**
 * Starts one instance of the order-stats service (environment: see the README). HTTP (HTTPS
 * with CLUSTER_TLS_*; the module's management server on MANAGEMENT_PORT when set) comes up at once
 * (the probes answer while the client connects and restores); when the client fails for good
 * (state ERROR) the process exits with 1, so its supervisor (Kubernetes) restarts it: after a
 * failed start the module does it (`client.exitOnStartFailure`, once the start named its cause);
 * for any other failure (an uncaught processing error) this closes the application first.
 */
async function bootstrap(): Promise<void> {
  const config = orderStatsConfig();
  const tls = config.security.clusterTls;
  const app = await createApplication(
    AppModule,
    config.httpPlatform,
    config.applicationServer,
    tls && { cert: tls.cert, key: tls.key },
  );
  app.enableShutdownHooks();
  await app.init();
  const streams = app.get(KafkaStreams);
  const exitOnError = (state: KafkaStreamsState): void => {
    if (state !== KafkaStreamsState.ERROR || streams.startupProblem) return;
    void app.close().finally(() => process.exit(1));
  };
  streams.onStateChange((state) => {
    logger.log(`STATE ${state}`);
    exitOnError(state);
  });
  exitOnError(streams.state); // a start that failed before the listener was there
  await app.listen(config.port, config.host);
  logger.log(
    `order-stats listening on ${config.port}${tls ? ' (HTTPS)' : ''} as ${config.applicationServer} (${config.httpPlatform})` +
      (config.managementPort === undefined ? '' : `, management on ${config.managementPort}`),
  );
}

bootstrap().catch((error: unknown) => {
  logger.error(
    error instanceof Error ? error.message : String(error),
    error instanceof Error ? error.stack : undefined,
  );
  process.exit(1);
});

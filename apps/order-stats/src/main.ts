import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { KafkaStreams, KafkaStreamsState } from '@nest-streams/streams';
import { AppModule } from './app.module';
import { createApplication } from './http-platform';
import { orderStatsConfig } from './order-stats.config';

const logger = new Logger('OrderStats');

/**
 * Starts one instance of the order-stats service (environment: see the README). HTTP comes up
 * at once (the probes answer while the client connects and restores); when the client fails
 * for good (state ERROR: a start error or an uncaught processing error) the process closes and
 * exits with 1, so its supervisor (Kubernetes) restarts it.
 */
async function bootstrap(): Promise<void> {
  const config = orderStatsConfig();
  const app = await createApplication(AppModule, config.httpPlatform, config.applicationServer);
  app.enableShutdownHooks();
  await app.init();
  app.get(KafkaStreams).onStateChange((state) => {
    process.stdout.write(`STATE ${state}\n`);
    if (state === KafkaStreamsState.ERROR) {
      void app.close().finally(() => process.exit(1));
    }
  });
  await app.listen(config.port, config.host);
  logger.log(
    `order-stats listening on ${config.port} as ${config.applicationServer} (${config.httpPlatform})`,
  );
}

bootstrap().catch((error: unknown) => {
  logger.error(
    error instanceof Error ? error.message : String(error),
    error instanceof Error ? error.stack : undefined,
  );
  process.exit(1);
});

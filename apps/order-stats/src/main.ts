import 'reflect-metadata';
import { KafkaStreams } from '@nest-streams/streams';
import { AppModule } from './app.module';
import { createApplication } from './http-platform';
import { orderStatsConfig } from './order-stats.config';

/** Starts one instance of the order-stats service (environment: see DESIGN.md and the README). */
async function bootstrap(): Promise<void> {
  const config = orderStatsConfig();
  const app = await createApplication(AppModule, config.httpPlatform, config.applicationServer);
  app.enableShutdownHooks();
  await app.init();
  app.get(KafkaStreams).onStateChange((state) => process.stdout.write(`STATE ${state}\n`));
  await app.listen(config.port, config.host);
  process.stdout.write(
    `order-stats listening on ${config.port} as ${config.applicationServer} (${config.httpPlatform})\n`,
  );
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});

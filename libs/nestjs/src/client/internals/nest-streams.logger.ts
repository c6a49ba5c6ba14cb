import { Logger } from '@nestjs/common';
import type { StreamsLogger } from '@nest-streams/streams';

/**
 * The engine's logger written through Nest's `Logger` with `context` (`KafkaStreams`; the Kafka
 * client's lines under `kafkajs`), so whatever logger the application gave Nest (`app.useLogger`,
 * `NestFactory.create(..., { logger })`, nestjs-pino, ...) receives them, filtered by its levels:
 * `error` → `error`, `warn` → `warn`, `info` → `log`, `debug` → `debug`.
 */
export function nestStreamsLogger(context = 'KafkaStreams'): StreamsLogger {
  const logger = new Logger(context);
  return {
    error: (message) => logger.error(message),
    warn: (message) => logger.warn(message),
    info: (message) => logger.log(message),
    debug: (message) => logger.debug(message),
    child: (name) => nestStreamsLogger(name),
  };
}

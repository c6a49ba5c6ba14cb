import type { INestApplication, LogLevel, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { answerClientErrors, clientErrorHandler } from './client-error.handler';
import type { HttpPlatform } from './order-stats.config';

/**
 * Longest path parameter Fastify routes (its default, 100, would answer 404 to the long keys
 * the application answers 400 to itself, as on Express); request lines are capped at 16 KiB by
 * Node's parser anyway.
 */
const MAX_PARAM_LENGTH = 16 * 1024;

/** The certificate and key HTTPS is served with. */
export interface HttpsMaterial {
  readonly cert: string | Buffer;
  readonly key: string | Buffer;
}

/**
 * Creates the application on `platform` (HTTPS when `https` is given), answering requests
 * Node's HTTP parser rejects with `X-Served-By: servedBy` (see `answerClientErrors`) on either
 * platform.
 */
export async function createApplication(
  module: Type<unknown>,
  platform: HttpPlatform,
  servedBy: string,
  https?: HttpsMaterial,
): Promise<INestApplication> {
  // Nest's levels down to `log`: the client's life (restores, rebalances) is shown, `debug` is not.
  const options = { logger: ['fatal', 'error', 'warn', 'log'] as LogLevel[] };
  if (platform === 'fastify') {
    const adapter = new FastifyAdapter({
      routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
      clientErrorHandler: clientErrorHandler(servedBy),
      ...(https ? { https: { cert: https.cert, key: https.key } } : {}),
    });
    return NestFactory.create(module, adapter, options);
  }
  const app = await NestFactory.create(module, new ExpressAdapter(), {
    ...options,
    ...(https ? { httpsOptions: { cert: https.cert, key: https.key } } : {}),
  });
  answerClientErrors(app.getHttpServer(), servedBy);
  return app;
}

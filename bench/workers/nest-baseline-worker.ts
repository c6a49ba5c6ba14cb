/**
 * Child process of the `query` scenario: what the web framework alone costs. A Nest
 * application on Express (`--platform express`, as apps/order-stats by default) or Fastify
 * (`--platform fastify`), with one controller answering `GET /stats/:userId` from an in-memory
 * map of the truth file: no Kafka, no state store, no routing interceptor, no metrics; with
 * `--interceptor pass-through`, one global interceptor that only returns `next.handle()` (what
 * Nest's interceptor chain costs any application that has one). Serves on `--http-port` until
 * `GET /quit`, then prints a WorkerResult line (`details.httpServed`).
 *
 *   node --import tsx bench/workers/nest-baseline-worker.ts --truth-file F --http-port P \
 *     [--platform express|fastify] [--interceptor none|pass-through]
 */
import 'reflect-metadata';
import {
  type CallHandler,
  Controller,
  type ExecutionContext,
  Get,
  Injectable,
  Module,
  type NestInterceptor,
  NotFoundException,
  Param,
} from '@nestjs/common';
import { APP_INTERCEPTOR, NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { Observable } from 'rxjs';
import type { BenchStats } from '../topologies/bench-types';
import { readStatsTruth } from './query-files';
import { emitResult, peakRssMb, requiredOptions } from './worker-support';

const args = requiredOptions(['truth-file', 'http-port'], ['platform', 'interceptor']);
const platform = args.platform ?? 'express';
const interceptor = args.interceptor ?? 'none';
if (platform !== 'express' && platform !== 'fastify') {
  throw new Error(`--platform must be express or fastify, got '${platform}'`);
}
if (interceptor !== 'none' && interceptor !== 'pass-through') {
  throw new Error(`--interceptor must be none or pass-through, got '${interceptor}'`);
}
let stats = new Map<string, BenchStats>();
let served = 0;
let quit: (() => void) | undefined;

@Controller()
class BaselineController {
  @Get('stats/:userId')
  get(@Param('userId') userId: string): BenchStats {
    served++;
    const value = stats.get(userId);
    if (!value) throw new NotFoundException();
    return { count: value.count, sum: value.sum };
  }

  @Get('quit')
  quit(): string {
    setImmediate(() => quit?.());
    return 'bye';
  }
}

/** Lets every request through: the cost of having an interceptor at all. */
@Injectable()
class PassThroughInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle();
  }
}

@Module({
  controllers: [BaselineController],
  providers:
    interceptor === 'pass-through'
      ? [{ provide: APP_INTERCEPTOR, useClass: PassThroughInterceptor }]
      : [],
})
class BaselineModule {}

async function main(): Promise<void> {
  stats = await readStatsTruth(args['truth-file']);
  const options = { logger: ['error' as const, 'warn' as const] };
  const app =
    platform === 'fastify'
      ? await NestFactory.create(BaselineModule, new FastifyAdapter(), options)
      : await NestFactory.create(BaselineModule, options);
  const started = performance.now();
  await app.listen(Number(args['http-port']), '127.0.0.1');
  await new Promise<void>((resolve) => (quit = resolve));
  const seconds = (performance.now() - started) / 1000;
  const peak = peakRssMb();
  await app.close();
  emitResult({ records: served, seconds, peakRssMb: peak, details: { httpServed: served } });
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(
      `nest-baseline-worker failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);

/**
 * Child process of the `query` scenario: what the web framework alone costs. A Nest
 * application on Express, as apps/order-stats is, with one controller answering
 * `GET /stats/:userId` from an in-memory map of the truth file: no Kafka, no state store, no
 * routing interceptor, no metrics. Serves on `--http-port` until `GET /quit`, then prints a
 * WorkerResult line (`details.httpServed`).
 *
 *   node --import tsx bench/workers/nest-baseline-worker.ts --truth-file F --http-port P
 */
import 'reflect-metadata';
import { Controller, Get, Module, NotFoundException, Param } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { BenchStats } from '../topologies/bench-types';
import { readStatsTruth } from './query-files';
import { emitResult, peakRssMb, requiredOptions } from './worker-support';

const args = requiredOptions(['truth-file', 'http-port']);
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

@Module({ controllers: [BaselineController] })
class BaselineModule {}

async function main(): Promise<void> {
  stats = await readStatsTruth(args['truth-file']);
  const app = await NestFactory.create(BaselineModule, { logger: ['error', 'warn'] });
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

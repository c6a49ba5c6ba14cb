import { Injectable, type INestApplication } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { freePort } from '@nest-streams/testing/kafka';
import { Serdes, TimeWindows } from '@nest-streams/streams';
import { Aggregate } from '../src/decorators/aggregate.decorator';
import { Count } from '../src/decorators/count.decorator';
import { StateStore } from '../src/decorators/state-store.decorator';
import { StreamsModule } from '../src/streams.module';
import type { StreamsModuleOptions } from '../src/settings/streams-module-options.interface';
import { sumAggregation } from './http-fixtures';

export interface Event {
  userId: string;
  amount: number;
}
export interface Stats {
  count: number;
  sum: number;
}

/** Module options that never reach a broker. */
export const baseOptions: StreamsModuleOptions = {
  streams: { applicationId: 'module-spec', bootstrapServers: ['127.0.0.1:1'] },
  client: { start: 'manual' },
};

/**
 * Module options of an instance reachable at `applicationServer` (with a cluster secret) that
 * never reach a broker.
 */
export function serverOptions(
  applicationId: string,
  applicationServer: string,
): StreamsModuleOptions {
  return {
    streams: { applicationId, bootstrapServers: ['127.0.0.1:1'], applicationServer },
    client: { start: 'manual' },
    security: { clusterSecret: `${applicationId}-cluster-secret` },
  };
}

/**
 * An instance of the module ({@link serverOptions} of `applicationId`, then `options`) with a
 * sum of topic `amounts` into store `totals`, on `platform`, listening on a free local port
 * (its `applicationServer`); close it with `app.close()`.
 */
export async function listeningServer(
  platform: 'express' | 'fastify',
  applicationId: string,
  options: Partial<StreamsModuleOptions>,
): Promise<{ app: INestApplication; url: string }> {
  const port = await freePort();
  const moduleRef = await Test.createTestingModule({
    imports: [
      StreamsModule.forRoot({ ...serverOptions(applicationId, `127.0.0.1:${port}`), ...options }),
    ],
    providers: [sumAggregation('totals', 'amounts')],
  }).compile();
  const app = moduleRef.createNestApplication(
    platform === 'fastify' ? new FastifyAdapter() : new ExpressAdapter(),
    { logger: false },
  );
  await app.listen(port, '127.0.0.1');
  return { app, url: `http://127.0.0.1:${port}` };
}

/** What the key look-up of `alice` in `totals` answers before the client runs: no owner yet. */
export const ALICE_WITHOUT_OWNER = {
  store: 'totals',
  key: 'alice',
  partition: null,
  activeHost: null,
  standbyHosts: [],
  copies: [],
};

/** What the key look-up answers while it is off (`dashboard.lookup` unset). */
export const LOOKUP_OFF = {
  statusCode: 404,
  error: 'Not Found',
  message: 'the key look-up is off: turn it on with dashboard.lookup (README, Cluster page)',
};

/** The example application's aggregations: stats per user and 5-minute counts. */
@StateStore('stats-store', { keySerde: Serdes.String(), valueSerde: Serdes.Json<Stats>() })
@StateStore('windowed-count-store', { kind: 'window', retentionMs: 3_600_000 })
@Injectable()
export class StatsAggregation {
  calls = 0;

  @Aggregate<string, Event, Stats>({
    source: 'labs.events',
    store: 'stats-store',
    initializer: () => ({ count: 0, sum: 0 }),
    keySerde: Serdes.String(),
    valueSerde: Serdes.Json<Event>(),
  })
  add(_userId: string, event: Event, stats: Stats): Stats {
    this.calls++;
    return { count: stats.count + 1, sum: stats.sum + event.amount };
  }

  @Count<string, Event>({
    source: 'labs.events',
    store: 'windowed-count-store',
    windows: TimeWindows.ofSizeWithNoGrace(300_000),
  })
  countEvent(): void {}
}

/** Counts the records of topic `events` per key into key-value store `counts`. */
@StateStore('counts', { keySerde: Serdes.String() })
@Injectable()
export class Counting {
  @Count({ source: 'events', store: 'counts', keySerde: Serdes.String() })
  count(): void {}
}

/** A Nest application with the module (options on top of `baseOptions`), initialized. */
export async function appWith(
  providers: unknown[],
  options: Partial<StreamsModuleOptions> = {},
  controllers: unknown[] = [],
): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({
    imports: [StreamsModule.forRoot({ ...baseOptions, ...options })],
    providers: providers as never[],
    controllers: controllers as never[],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  await app.init();
  return app;
}

/**
 * The error `appWith(providers, options)` fails with (a start-up error).
 *
 * @throws Error when the application initializes after all.
 */
export async function initError(
  providers: unknown[],
  options: Partial<StreamsModuleOptions> = {},
): Promise<Error> {
  try {
    const app = await appWith(providers, options);
    await app.close();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected app.init() to fail');
}

import { Controller, Get, type INestApplication } from '@nestjs/common';
import {
  KafkaStreams,
  KafkaStreamsState,
  StateStoreNotAvailableError,
} from '@nest-streams/streams';
import { StreamsModule } from './streams.module';
import { listeningApp } from '../test-support/http-fixtures';
import { Counting, serverOptions } from '../test-support/stats-module-fixtures';
import type { StreamsModuleOptions } from './settings/streams-module-options.interface';

@Controller('probe')
class ProbeController {
  @Get('plain')
  plain(): { ok: true } {
    return { ok: true };
  }

  @Get('unavailable')
  unavailable(): never {
    throw new StateStoreNotAvailableError('counts is restoring');
  }
}

const base = serverOptions('options-spec', '127.0.0.1:4321');

interface Started {
  app: INestApplication;
  get(path: string): Promise<{ status: number; headers: Headers; text: string }>;
}

async function serve(module: ReturnType<typeof StreamsModule.forRoot>): Promise<Started> {
  const { app, base } = await listeningApp([module], [Counting], [ProbeController]);
  return {
    app,
    get: async (path) => {
      const response = await fetch(`${base}${path}`);
      return { status: response.status, headers: response.headers, text: await response.text() };
    },
  };
}

describe('StreamsModule options', () => {
  it('serves no /metrics and no X-Served-By unless asked', async () => {
    const { app, get } = await serve(StreamsModule.forRoot(base));
    try {
      expect((await get('/metrics')).status).toBe(404);
      const plain = await get('/probe/plain');
      expect(plain.status).toBe(200);
      expect(plain.headers.get('x-served-by')).toBeNull();
    } finally {
      await app.close();
    }
  });

  it('serves metrics on metrics.endpoint and X-Served-By with http.servedByHeader', async () => {
    const { app, get } = await serve(
      StreamsModule.forRoot({
        ...base,
        metrics: { endpoint: 'prometheus' },
        http: { servedByHeader: true },
      }),
    );
    try {
      const scrape = await get('/prometheus');
      expect(scrape.status).toBe(200);
      expect(scrape.text).toContain('kafka_streams_state{state="CREATED"} 1');
      expect((await get('/metrics')).status).toBe(404);
      expect((await get('/probe/plain')).headers.get('x-served-by')).toBe('127.0.0.1:4321');
    } finally {
      await app.close();
    }
  });

  it('takes the same shape from forRootAsync, the endpoint included', async () => {
    const { app, get } = await serve(
      StreamsModule.forRootAsync({
        useFactory: async (): Promise<StreamsModuleOptions> => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          return { ...base, metrics: { endpoint: 'from-factory', prefix: 'orders_' } };
        },
      }),
    );
    try {
      const scrape = await get('/from-factory');
      expect(scrape.status).toBe(200);
      expect(scrape.text).toContain('orders_state{state="CREATED"} 1');
    } finally {
      await app.close();
    }
  });

  it('maps engine errors for every route, unless http.global is false', async () => {
    const global = await serve(StreamsModule.forRoot({ ...base, http: { retryAfterSeconds: 4 } }));
    try {
      const answer = await global.get('/probe/unavailable');
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('4');
      expect(JSON.parse(answer.text)).toMatchObject({
        code: 'STORE_NOT_AVAILABLE',
        retriable: true,
      });
    } finally {
      await global.app.close();
    }
    const local = await serve(StreamsModule.forRoot({ ...base, http: { global: false } }));
    try {
      const answer = await local.get('/probe/unavailable');
      expect(answer.status).toBe(500);
      expect(answer.headers.get('retry-after')).toBeNull();
    } finally {
      await local.app.close();
    }
  });

  it("leaves the client to the application with client.start: 'manual'", async () => {
    const { app } = await serve(StreamsModule.forRoot(base));
    try {
      expect(app.get(KafkaStreams).state).toBe(KafkaStreamsState.CREATED);
    } finally {
      await app.close();
    }
  });
});

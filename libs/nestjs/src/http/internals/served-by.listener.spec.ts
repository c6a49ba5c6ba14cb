import { Controller, Get, type INestApplication } from '@nestjs/common';
import { StreamsModule } from '../../streams.module';
import { listeningApp, sumAggregation } from '../../../test-support/http-fixtures';
import { serverOptions } from '../../../test-support/stats-module-fixtures';

const Aggregation = sumAggregation('served-by-store');

@Controller('known')
class KnownController {
  @Get()
  get(): { ok: boolean } {
    return { ok: true };
  }
}

describe('ServedByListener', () => {
  let app: INestApplication;
  let base: string;

  beforeAll(async () => {
    ({ app, base } = await listeningApp(
      [
        StreamsModule.forRoot({
          ...serverOptions('served-by-spec', '127.0.0.1:2222'),
          http: { servedByHeader: true },
        }),
      ],
      [Aggregation],
      [KnownController],
    ));
  });

  afterAll(() => app.close());

  it('names this instance on answers no route handles, as on the others', async () => {
    for (const [method, path, status] of [
      ['GET', '/known', 200],
      ['GET', '/', 404],
      ['GET', '/no/such/route?x=1', 404],
      ['POST', '/known', 404],
      ['DELETE', '/%2e%2e/%zz', 404],
    ] as const) {
      const response = await fetch(`${base}${path}`, { method });
      await response.arrayBuffer();
      expect({
        method,
        path,
        status: response.status,
        by: response.headers.get('x-served-by'),
      }).toEqual({
        method,
        path,
        status,
        by: '127.0.0.1:2222',
      });
    }
  });
});

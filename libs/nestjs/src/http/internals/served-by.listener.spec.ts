import { Controller, Get, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { AddressInfo } from 'node:net';
import { StreamsModule } from '../../streams.module';
import { sumAggregation } from '../../../test-support/http-fixtures';

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
    const moduleRef = await Test.createTestingModule({
      imports: [
        StreamsModule.forRoot({
          streams: {
            applicationId: 'served-by-spec',
            bootstrapServers: ['127.0.0.1:1'],
            applicationServer: '127.0.0.1:2222',
          },
          client: { start: 'manual' },
          security: { clusterSecret: 'served-by-spec-cluster-secret' },
          http: { servedByHeader: true },
        }),
      ],
      providers: [Aggregation],
      controllers: [KnownController],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer() as { address(): AddressInfo }).address().port}`;
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

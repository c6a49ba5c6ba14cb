import { type INestApplication } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { freePort } from '@nest-streams/testing/kafka';
import { InteractiveQueryServer } from '../../queries/internals/interactive-query.server';
import { fromWire } from '../../queries/internals/wire-codec';
import { StreamsModule } from '../../streams.module';
import type { StreamsModuleOptions } from '../../settings/streams-module-options.interface';
import type { InstanceReport } from './instance-reporter';
import { sumAggregation } from '../../../test-support/http-fixtures';
import { serverOptions } from '../../../test-support/stats-module-fixtures';

const Totals = sumAggregation('totals', 'amounts');

async function start(
  platform: 'express' | 'fastify',
  extra: Partial<StreamsModuleOptions>,
): Promise<{ app: INestApplication; url: string }> {
  const port = await freePort();
  const moduleRef = await Test.createTestingModule({
    imports: [
      StreamsModule.forRoot({
        ...serverOptions('dashboard-spec', `127.0.0.1:${port}`),
        ...extra,
      }),
    ],
    providers: [Totals],
  }).compile();
  const app = moduleRef.createNestApplication(
    platform === 'fastify' ? new FastifyAdapter() : new ExpressAdapter(),
    { logger: false },
  );
  await app.listen(port, '127.0.0.1');
  return { app, url: `http://127.0.0.1:${port}` };
}

describe.each(['express', 'fastify'] as const)('the cluster page on %s', (platform) => {
  it('serves the page, the topology, the cluster and the look-up at its path', async () => {
    const { app, url } = await start(platform, { dashboard: { path: '/ops/streams/' } });
    try {
      const page = await fetch(`${url}/ops/streams`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.headers.get('content-security-policy')).toMatch(
        /^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/]+=*'; style-src 'sha256-/,
      );
      const html = await page.text();
      expect(html).toContain('<title>Kafka Streams cluster</title>');

      const topology = await fetch(`${url}/ops/streams/api/topology`);
      expect(topology.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const body = (await topology.json()) as {
        applicationId: string;
        description: string;
        stores: unknown[];
        graph: { nodes: { id: string; kind: string; detail?: string }[] };
      };
      expect(body.applicationId).toBe('dashboard-spec');
      expect(body.description).toContain('Sub-topology: 0');
      expect(body.stores).toEqual([
        {
          name: 'totals',
          kind: 'key-value',
          subtopology: 0,
          changelog: 'dashboard-spec-totals-changelog',
        },
      ]);
      expect(body.graph.nodes.find((n) => n.kind === 'store')).toMatchObject({
        id: 'store:totals',
        detail: 'changelog dashboard-spec-totals-changelog',
      });
      expect(body.graph.nodes.find((n) => n.kind === 'topic')).toMatchObject({
        id: 'topic:0:amounts',
      });

      // Not started: this instance alone, in state CREATED, no copies yet.
      const cluster = (await (await fetch(`${url}/ops/streams/api/cluster`)).json()) as {
        instances: { host: string; self: boolean; status: string; report: { state: string } }[];
      };
      expect(cluster.instances).toEqual([
        expect.objectContaining({
          self: true,
          status: 'up',
          report: expect.objectContaining({ state: 'CREATED' }),
        }),
      ]);

      const missing = await fetch(`${url}/ops/streams/api/lookup?store=totals`);
      expect(missing.status).toBe(400);
      const unknown = await fetch(`${url}/ops/streams/api/lookup?store=nope&key=a`);
      expect(unknown.status).toBe(404);
      expect(((await unknown.json()) as { message: string }).message).toContain('nope');
      const tooLong = await fetch(
        `${url}/ops/streams/api/lookup?store=totals&key=${'k'.repeat(1025)}`,
      );
      expect(tooLong.status).toBe(400);
      // The client is not running: no confirmed owner, said as data.
      const rebalancing = await fetch(`${url}/ops/streams/api/lookup?store=totals&key=alice`);
      expect(rebalancing.status).toBe(200);
      expect(await rebalancing.json()).toEqual({
        store: 'totals',
        key: 'alice',
        partition: null,
        activeHost: null,
        standbyHosts: [],
        copies: [],
      });
    } finally {
      await app.close();
    }
  });

  it('serves nothing with the page off (the default)', async () => {
    const { app, url } = await start(platform, {});
    try {
      expect((await fetch(`${url}/streams/ui`)).status).toBe(404);
      expect((await fetch(`${url}/streams/ui/api/cluster`)).status).toBe(404);
    } finally {
      await app.close();
    }
  });
});

describe("an instance's report over the query transport", () => {
  it('answers the report request kind with the instance report, encoded', async () => {
    const queryPort = await freePort();
    const { app } = await start('express', {
      dashboard: true,
      queries: { remote: { port: queryPort } },
    });
    try {
      const server = app.get(InteractiveQueryServer);
      const endpoint = `127.0.0.1:${queryPort}`;
      const answer = await server.answer({
        version: 1,
        target: endpoint,
        from: 'spec',
        instanceReport: true,
      });
      expect(answer.ok).toBe(true);
      if (!answer.ok) throw new Error('unreachable');
      const report = fromWire(answer.result) as InstanceReport;
      expect(report).toMatchObject({
        state: 'CREATED',
        rebalances: 0,
        lastRebalanceAt: null,
        tasks: { active: [], standby: [], warmup: [], restoring: [] },
        lags: [],
        restores: [],
      });
      // Meant for another instance: refused, as every request kind is.
      const wrong = await server.answer({
        version: 1,
        target: '127.0.0.1:1',
        from: 'spec',
        instanceReport: true,
      });
      expect(wrong).toMatchObject({ ok: false, failure: { code: 'STORE_MIGRATED' } });
    } finally {
      await app.close();
    }
  });
});

import { type ExecutionContext } from '@nestjs/common';
import { freePort } from '@nest-streams/testing/kafka';
import { InteractiveQueryServer } from '../../queries/internals/interactive-query.server';
import { fromWire } from '../../queries/internals/wire-codec';
import type { StreamsModuleOptions } from '../../settings/streams-module-options.interface';
import type { InstanceReport } from './instance-reporter';
import {
  ALICE_WITHOUT_OWNER,
  listeningServer,
  LOOKUP_OFF,
} from '../../../test-support/stats-module-fixtures';

const start = (platform: 'express' | 'fastify', options: Partial<StreamsModuleOptions>) =>
  listeningServer(platform, 'dashboard-spec', options);

/** The cluster secret `serverOptions('dashboard-spec', ...)` gives the instance. */
const SECRET = 'dashboard-spec-cluster-secret';
const bearer = { authorization: `Bearer ${SECRET}` };

describe.each(['express', 'fastify'] as const)('the cluster page on %s', (platform) => {
  it('serves the page, the topology, the cluster and the look-up at its path', async () => {
    const { app, url } = await start(platform, {
      dashboard: { path: '/ops/streams/', lookup: true },
    });
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

      const lookUp = (query: string) =>
        fetch(`${url}/ops/streams/api/lookup?${query}`, { headers: bearer });
      const missing = await lookUp('store=totals');
      expect(missing.status).toBe(400);
      const unknown = await lookUp('store=nope&key=a');
      expect(unknown.status).toBe(404);
      expect(((await unknown.json()) as { message: string }).message).toContain('nope');
      const tooLong = await lookUp(`store=totals&key=${'k'.repeat(1025)}`);
      expect(tooLong.status).toBe(400);
      // The client is not running: no confirmed owner, said as data.
      const rebalancing = await lookUp('store=totals&key=alice');
      expect(rebalancing.status).toBe(200);
      expect(await rebalancing.json()).toEqual(ALICE_WITHOUT_OWNER);
    } finally {
      await app.close();
    }
  });

  it('answers the look-up on the application port only to a caller with a cluster secret', async () => {
    const { app, url } = await start(platform, {
      dashboard: { lookup: true },
      security: { clusterSecret: ['dashboard-spec-next-secret', SECRET] },
    });
    try {
      const lookUp = (headers: Record<string, string> = {}) =>
        fetch(`${url}/streams/ui/api/lookup?store=totals&key=alice`, { headers });
      const refusedHeaders: Record<string, string>[] = [
        {},
        { authorization: 'Bearer not-the-cluster-secret' },
        { authorization: `Basic ${SECRET}` },
        { authorization: `Bearer ${SECRET}x` },
      ];
      for (const headers of refusedHeaders) {
        const refused = await lookUp(headers);
        expect({
          status: refused.status,
          challenge: refused.headers.get('www-authenticate'),
          body: await refused.json(),
        }).toEqual({
          status: 401,
          challenge: 'Bearer realm="nest-streams cluster page"',
          body: {
            statusCode: 401,
            error: 'Unauthorized',
            message:
              'the key look-up on this port answers only callers that send a cluster secret: Authorization: Bearer <security.clusterSecret>',
          },
        });
      }
      // Any secret of the list (a rotation) opens it.
      expect((await lookUp(bearer)).status).toBe(200);
      expect((await lookUp({ authorization: 'Bearer dashboard-spec-next-secret' })).status).toBe(
        200,
      );
      // The rest of the page needs no secret.
      expect((await fetch(`${url}/streams/ui/api/cluster`)).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it("guards the look-up with the application's guard instead, when it gives one", async () => {
    const seen: string[] = [];
    const guard = {
      canActivate: (context: ExecutionContext) => {
        const request = context.switchToHttp().getRequest<{ headers: Record<string, string> }>();
        seen.push(request.headers['x-operator'] ?? '-');
        return request.headers['x-operator'] === 'alice';
      },
    };
    const { app, url } = await start(platform, { dashboard: { lookup: { guard } } });
    try {
      const lookUp = (headers: Record<string, string>) =>
        fetch(`${url}/streams/ui/api/lookup?store=totals&key=alice`, { headers });
      expect((await lookUp({ 'x-operator': 'mallory', ...bearer })).status).toBe(403);
      expect((await lookUp({ 'x-operator': 'alice' })).status).toBe(200);
      expect(seen).toEqual(['mallory', 'alice']);
    } finally {
      await app.close();
    }
  });

  it('answers 404 to the look-up while it is off (the default), and serves the rest', async () => {
    const { app, url } = await start(platform, { dashboard: true });
    try {
      const off = await fetch(`${url}/streams/ui/api/lookup?store=totals&key=alice`, {
        headers: bearer,
      });
      expect({ status: off.status, body: await off.json() }).toEqual({
        status: 404,
        body: LOOKUP_OFF,
      });
      expect((await fetch(`${url}/streams/ui`)).status).toBe(200);
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

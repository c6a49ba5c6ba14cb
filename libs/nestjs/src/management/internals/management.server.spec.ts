import { createServer } from 'node:net';
import { freePort } from '@nest-streams/testing/kafka';
import { StreamsModuleConfigError } from '../../errors/streams-module-config.error';
import type { StreamsModuleOptions } from '../../settings/streams-module-options.interface';
import {
  ALICE_WITHOUT_OWNER,
  listeningServer,
  LOOKUP_OFF,
} from '../../../test-support/stats-module-fixtures';

/** Every operator surface on, at the example application's paths. */
const SURFACES: Partial<StreamsModuleOptions> = {
  metrics: { endpoint: 'metrics' },
  dashboard: { path: 'streams/ui' },
};

const start = (platform: 'express' | 'fastify', options: Partial<StreamsModuleOptions>) =>
  listeningServer(platform, 'management-spec', { http: { servedByHeader: true }, ...options });

/** Status, content type and `X-Served-By` of `GET url` (any method with `init`). */
async function probe(url: string, init?: RequestInit) {
  const response = await fetch(url, init);
  await response.arrayBuffer();
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    servedBy: response.headers.get('x-served-by'),
  };
}

describe.each(['express', 'fastify'] as const)('the management port, app on %s', (platform) => {
  it('serves metrics, the cluster page and the layout there, and none of them on the app port', async () => {
    const managementPort = await freePort();
    const { app, url } = await start(platform, {
      ...SURFACES,
      management: { port: managementPort, metadataEndpoint: '/streams/metadata/' },
    });
    const management = `http://127.0.0.1:${managementPort}`;
    const self = new URL(url).host;
    try {
      for (const path of [
        '/metrics',
        '/streams/ui',
        '/streams/ui/api/topology',
        '/streams/ui/api/cluster',
        '/streams/ui/api/lookup?store=totals&key=alice',
        '/streams/metadata',
      ]) {
        expect({ path, status: (await probe(`${url}${path}`)).status }).toEqual({
          path,
          status: 404,
        });
      }
      const json = 'application/json; charset=utf-8';
      expect(await probe(`${management}/metrics`)).toEqual({
        status: 200,
        type: 'text/plain; version=0.0.4; charset=utf-8',
        servedBy: self,
      });
      expect(await probe(`${management}/streams/ui`)).toEqual({
        status: 200,
        type: 'text/html; charset=utf-8',
        servedBy: self,
      });
      const page = await fetch(`${management}/streams/ui/`);
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'none'; /);
      expect(await page.text()).toContain('<title>Kafka Streams cluster</title>');
      for (const path of ['/streams/ui/api/topology', '/streams/ui/api/cluster']) {
        expect(await probe(`${management}${path}`)).toEqual({
          status: 200,
          type: json,
          servedBy: self,
        });
      }
      const layout = await fetch(`${management}/streams/metadata`);
      expect(layout.status).toBe(200);
      expect(await layout.json()).toMatchObject({ state: 'CREATED', instances: [], lags: {} });
      // The look-up is off there too unless asked for.
      const lookup = await fetch(`${management}/streams/ui/api/lookup?store=totals&key=alice`);
      expect({ status: lookup.status, body: await lookup.json() }).toEqual({
        status: 404,
        body: LOOKUP_OFF,
      });
      expect(await probe(`${management}/nothing`)).toEqual({
        status: 404,
        type: json,
        servedBy: self,
      });
      const post = await fetch(`${management}/metrics`, { method: 'POST' });
      expect({ status: post.status, allow: post.headers.get('allow') }).toEqual({
        status: 405,
        allow: 'GET, HEAD',
      });
    } finally {
      await app.close();
    }
    // Closed with the application.
    await expect(fetch(`${management}/metrics`)).rejects.toThrow();
  });

  it('answers the look-up there without a secret when it is on, and its bad requests as the app would', async () => {
    const managementPort = await freePort();
    const { app } = await start(platform, {
      ...SURFACES,
      dashboard: { lookup: true },
      management: { port: managementPort },
    });
    const lookUp = (query: string) =>
      fetch(`http://127.0.0.1:${managementPort}/streams/ui/api/lookup?${query}`);
    try {
      const found = await lookUp('store=totals&key=alice');
      expect({ status: found.status, body: await found.json() }).toEqual({
        status: 200,
        body: ALICE_WITHOUT_OWNER,
      });
      const repeated = await lookUp('store=totals&key=a&key=b');
      expect({ status: repeated.status, body: await repeated.json() }).toEqual({
        status: 400,
        body: {
          statusCode: 400,
          error: 'Bad Request',
          message: 'give one store and one key: ?store=<name>&key=<key>',
        },
      });
      expect((await lookUp('store=nope&key=a')).status).toBe(404);
    } finally {
      await app.close();
    }
  });
});

describe('management settings', () => {
  it('fails the start when the management port is taken, naming the option', async () => {
    const taken = createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => taken.listen(port, '127.0.0.1', resolve));
    try {
      await expect(start('express', { ...SURFACES, management: { port } })).rejects.toThrow(
        `the management server cannot listen on 127.0.0.1:${port} (listen EADDRINUSE: address already in use 127.0.0.1:${port}): choose another management.port`,
      );
    } finally {
      taken.close();
    }
  });

  it.each([
    [
      { management: { port: 70_000 } },
      'management.port must be a port number (1-65535), got 70000',
    ],
    [
      { management: { host: '' } },
      "management.host must be an interface to bind (e.g. '0.0.0.0'), got ",
    ],
    [
      { management: { metadataEndpoint: 'a b' } },
      `management.metadataEndpoint must be a plain path such as 'streams/metadata' (letters, digits, '.', '_', '~', '-' between slashes), got "a b"`,
    ],
    [
      { dashboard: { lookup: 'yes' } },
      'dashboard.lookup must be true, false or { guard } with an instance of a Nest guard (an object with canActivate)',
    ],
    [
      { dashboard: { lookup: true }, security: { insecure: true } },
      "dashboard.lookup is on and served on the application's HTTP port, where it answers only callers that send a cluster secret, but security.clusterSecret is not set: set it, give dashboard.lookup a guard ({ guard }), or serve the page on management.port",
    ],
  ])('refuses %j', async (options, message) => {
    const error = await start('express', options as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamsModuleConfigError);
    expect((error as Error).message).toBe(message);
  });
});

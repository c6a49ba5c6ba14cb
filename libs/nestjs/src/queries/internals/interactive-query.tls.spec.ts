import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { HostInfo, RangeQuery } from '@nest-streams/streams';
import { TestPki, type TestCertificate } from '../../../../../tools/tls/test-pki';
import { StreamsModuleSettings } from '../../settings/internals/streams-module.settings';
import {
  listeningQueryServer,
  type ListeningQueryServer,
} from '../../../test-support/query-server-fixtures';
import { HttpRequestForwarder } from '../../routing/internals/http-request.forwarder';
import { OwnerUnreachableError } from '../../errors/owner-unreachable.error';
import { InteractiveQueryClient } from './interactive-query.client';
import { encodeStateQueryRequest } from './interactive-query.protocol';

describe('TLS between instances (security.tls)', () => {
  let dir: string;
  let pki: TestPki;
  let instance: TestCertificate;
  let stranger: TestCertificate;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tls-spec-'));
    pki = TestPki.create(join(dir, 'cluster'));
    instance = pki.issue('instance', ['127.0.0.1', 'localhost']);
    stranger = TestPki.create(join(dir, 'other'), 'another CA').issue('stranger', ['127.0.0.1']);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const settings = (port: number, certificate = instance, ca = pki.ca) =>
    new StreamsModuleSettings({
      streams: {
        applicationId: 'tls-spec',
        bootstrapServers: ['127.0.0.1:1'],
        applicationServer: '127.0.0.1:8080',
      },
      queries: { remote: { port, timeoutMs: 2000, authTimeoutMs: 1000 } },
      security: {
        clusterSecret: 'tls-spec-cluster-secret',
        tls: { cert: certificate.cert, key: certificate.key, ca },
      },
    });

  describe('the query transport (mutual TLS)', () => {
    let listening: ListeningQueryServer;
    const ask = (client: InteractiveQueryClient) =>
      client.send(listening.endpoint, {
        version: 1,
        target: listening.endpoint,
        from: 'spec',
        request: encodeStateQueryRequest({ storeName: 's', query: RangeQuery.withNoBounds() }),
      });

    beforeEach(async () => {
      listening = await listeningQueryServer(
        (port) => settings(port),
        () => ({ partitionResults: [], position: {} }),
      );
    });
    afterEach(() => listening.server.close());

    it('answers an instance whose certificate the cluster CA signed', async () => {
      const client = new InteractiveQueryClient(settings(listening.port));
      try {
        expect(await ask(client)).toMatchObject({ ok: true });
        expect(listening.streams.queries).toHaveLength(1);
        expect(listening.reasons).toEqual([]);
      } finally {
        await client.close();
      }
    });

    it('refuses, at the handshake, a client without a certificate or with a stranger one', async () => {
      const handshake = (options: object) =>
        new Promise<string>((resolve) => {
          const socket = tlsConnect({
            host: '127.0.0.1',
            port: listening.port,
            ca: pki.ca,
            ...options,
          });
          socket.on('secureConnect', () => socket.write('10#{"id":"1"}'));
          socket.on('data', () => resolve('answered'));
          socket.on('error', (error) => resolve(`error: ${error.message}`));
          socket.on('close', () => resolve('closed'));
        });
      const anonymous = await handshake({});
      const foreign = await handshake({ cert: stranger.cert, key: stranger.key });
      expect(anonymous).not.toBe('answered');
      expect(foreign).not.toBe('answered');
      expect(listening.streams.queries).toEqual([]);
      expect(listening.reasons).toEqual(['unauthenticated', 'unauthenticated']);
      // A member whose settings trust another CA does not reach this server either.
      const misconfigured = new InteractiveQueryClient(
        settings(listening.port, stranger, stranger.cert),
      );
      try {
        await expect(ask(misconfigured)).rejects.toBeInstanceOf(OwnerUnreachableError);
      } finally {
        await misconfigured.close();
      }
    });
  });

  describe('forwarded HTTP requests (HTTPS)', () => {
    const owner = async (certificate: TestCertificate) => {
      const server = createHttpsServer(
        { cert: certificate.cert, key: certificate.key },
        (req, res) => {
          res.setHeader('content-type', 'application/json');
          res.end(
            JSON.stringify({
              path: req.url,
              tls: (req.socket as { encrypted?: boolean }).encrypted,
            }),
          );
        },
      );
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return server;
    };

    it('forwards over HTTPS to an owner whose certificate the cluster CA signed', async () => {
      const server = await owner(instance);
      const forwarder = new HttpRequestForwarder(settings(1));
      try {
        const target = HostInfo.parse(`127.0.0.1:${(server.address() as AddressInfo).port}`);
        const answer = await forwarder.forward(
          { method: 'GET', url: '/stats/u1', headers: {} },
          target,
          () => ({}),
          2000,
        );
        expect(answer.status).toBe(200);
        expect(JSON.parse(answer.body.toString())).toEqual({ path: '/stats/u1', tls: true });
      } finally {
        forwarder.onApplicationShutdown();
        server.close();
      }
    });

    it('never sends a request to an owner whose certificate the cluster CA did not sign', async () => {
      const server = await owner(stranger);
      let requests = 0;
      server.on('request', () => requests++);
      const forwarder = new HttpRequestForwarder(settings(1));
      try {
        const target = HostInfo.parse(`127.0.0.1:${(server.address() as AddressInfo).port}`);
        await expect(
          forwarder.forward(
            { method: 'GET', url: '/stats/u1', headers: {} },
            target,
            () => ({}),
            2000,
          ),
        ).rejects.toBeInstanceOf(OwnerUnreachableError);
        expect(requests).toBe(0);
      } finally {
        forwarder.onApplicationShutdown();
        server.close();
      }
    });
  });
});

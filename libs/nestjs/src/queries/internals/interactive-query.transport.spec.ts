import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { RangeQuery } from '@nest-streams/streams';
import { OwnerUnreachableError } from '../../errors/owner-unreachable.error';
import { StreamsModuleSettings } from '../../settings/internals/streams-module.settings';
import { FakeKafkaStreams } from '../../../test-support/fake-kafka-streams';
import { InteractiveQueryClient } from './interactive-query.client';
import { encodeStateQueryRequest } from './interactive-query.protocol';
import { InteractiveQueryServer } from './interactive-query.server';
import { fromWire } from './wire-codec';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const settings = (port: number, timeoutMs = 2000) =>
  new StreamsModuleSettings({
    streams: {
      applicationId: 'transport-spec',
      bootstrapServers: ['127.0.0.1:1'],
      applicationServer: '127.0.0.1:8080',
    },
    queries: { remote: { port, timeoutMs } },
    security: { clusterSecret: 'transport-spec-cluster-secret' },
  });

describe('instance-to-instance queries over @nestjs/microservices TCP', () => {
  it('carries the engine query request and its per-partition answer, exactly', async () => {
    const port = await freePort();
    const streams = new FakeKafkaStreams();
    // Bytes, bigints and dates: what the wire codec must carry exactly.
    const answer = {
      partitionResults: [
        {
          partition: 1,
          success: true,
          result: [{ key: Buffer.from([0, 255]), value: { n: 10n, at: new Date(5) } }],
          position: { t: { 1: 3 } },
          active: true,
        },
      ],
      position: { t: { 1: 3 } },
    };
    streams.answer = () => answer;
    const server = new InteractiveQueryServer(settings(port), streams.asKafkaStreams());
    await server.listen();
    const client = new InteractiveQueryClient(settings(port));
    try {
      const endpoint = `127.0.0.1:${port}`;
      const response = await client.send(endpoint, {
        version: 1,
        target: endpoint,
        from: 'test',
        request: encodeStateQueryRequest({
          storeName: 'stats-store',
          query: RangeQuery.withRange<unknown>('a', undefined),
          partitions: [1],
          requireActive: true,
        }),
      });
      expect(response.ok).toBe(true);
      expect(response.servedBy).toBe('127.0.0.1:8080');
      expect(streams.queries).toEqual([
        {
          storeName: 'stats-store',
          query: { type: 'range', lower: 'a', upper: undefined, descending: false },
          partitions: [1],
          requireActive: true,
        },
      ]);
      if (!response.ok) throw new Error('unreachable');
      const received = fromWire(response.result);
      expect(received).not.toBe(answer);
      expect(received).toEqual(answer);

      // A request meant for another endpoint is refused, as data.
      const wrong = await client.send(endpoint, {
        version: 1,
        target: '127.0.0.1:1',
        from: 'test',
        request: encodeStateQueryRequest({ storeName: 's', query: RangeQuery.withNoBounds() }),
      });
      expect(wrong).toMatchObject({
        ok: false,
        failure: { code: 'STORE_MIGRATED', retriable: true },
      });
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('reports an instance that does not listen as unreachable (retriable)', async () => {
    const port = await freePort();
    const client = new InteractiveQueryClient(settings(port, 500));
    try {
      await expect(
        client.send(`127.0.0.1:${port}`, {
          version: 1,
          target: `127.0.0.1:${port}`,
          from: 'test',
          request: encodeStateQueryRequest({ storeName: 's', query: RangeQuery.withNoBounds() }),
        }),
      ).rejects.toBeInstanceOf(OwnerUnreachableError);
    } finally {
      await client.close();
    }
  });
});

import type { INestApplication } from '@nestjs/common';
import { createServer, type Server } from 'node:http';
import { StreamsMetricsService } from '@nest-streams/nestjs';
import { KafkaStreams } from '@nest-streams/streams';
import { clusterMetadata } from './cluster-metadata';
import type { OrderStatsConfig } from './order-stats.config';

/**
 * The management server (`MANAGEMENT_PORT`): `GET /metrics` (Prometheus) and
 * `GET /streams/metadata` (the cluster's layout) on a port of their own, so that the client
 * port does not show them and a network policy can open this one to monitoring only. Plain
 * HTTP, bound to `HOST`; it does not keep the process alive on its own.
 *
 * @returns undefined when `MANAGEMENT_PORT` is not set (both are served on `PORT` then).
 * @throws the listen error (a port in use: choose another `MANAGEMENT_PORT`).
 */
export async function startManagementServer(
  app: INestApplication,
  config: OrderStatsConfig,
): Promise<Server | undefined> {
  if (config.managementPort === undefined) return undefined;
  const metrics = app.get(StreamsMetricsService);
  const streams = app.get(KafkaStreams);
  const server = createServer((req, res) => {
    const answer = (status: number, type: string, body: string): void => {
      res.writeHead(status, { 'content-type': type, 'x-served-by': config.applicationServer });
      res.end(body);
    };
    const path = new URL(req.url ?? '/', 'http://management').pathname;
    if (req.method !== 'GET') {
      answer(405, 'application/json', JSON.stringify({ statusCode: 405 }));
      return;
    }
    const body =
      path === '/metrics'
        ? metrics.metrics().then((text) => ({ type: metrics.registry.contentType, text }))
        : path === '/streams/metadata'
          ? clusterMetadata(streams).then((m) => ({
              type: 'application/json',
              text: JSON.stringify(m),
            }))
          : undefined;
    if (!body) {
      answer(404, 'application/json', JSON.stringify({ statusCode: 404 }));
      return;
    }
    body.then(
      ({ type, text }) => answer(200, type, text),
      (error: unknown) => answer(500, 'text/plain', String(error)),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.managementPort, config.host, () => resolve());
  });
  server.unref();
  return server;
}

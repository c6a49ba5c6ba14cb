import { Injectable } from '@nestjs/common';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Serdes } from '@nest-streams/streams';
import { Aggregate } from '../src/decorators/aggregate.decorator';
import { StateStore } from '../src/decorators/state-store.decorator';

/**
 * A provider declaring key-value store `store` (string keys, number values) and a sum
 * aggregation of topic `events` into it: the smallest topology a Nest module spec needs.
 */
export function sumAggregation(store: string): new () => object {
  @StateStore(store, { keySerde: Serdes.String(), valueSerde: Serdes.Json<number>() })
  @Injectable()
  class SumAggregation {
    @Aggregate<string, number, number>({ source: 'events', store, initializer: () => 0 })
    add(_k: string, v: number, total: number): number {
      return total + v;
    }
  }
  return SumAggregation;
}

/** A request a {@link Peer} received. */
export interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A peer instance: records what it receives and answers as told. */
export class Peer {
  readonly seen: Seen[] = [];
  status = 200;
  body: unknown = { from: 'peer' };
  headers: Record<string, string> = {};
  private server: Server | undefined;
  endpoint = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.seen.push({
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        res.writeHead(this.status, {
          'content-type': 'application/json',
          'x-served-by': this.endpoint,
          ...this.headers,
        });
        res.end(JSON.stringify(this.body));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.endpoint = `127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

/** A port nothing listens on. */
export async function deadEndpoint(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `127.0.0.1:${port}`;
}

/** An HTTP answer, its body as text and (when JSON) parsed. */
export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json: Record<string, unknown>;
}

/** One HTTP request to `base` + `path`, answered whatever its status. */
export function call(
  base: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<Answer> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}${path}`,
      {
        method: options.method ?? 'GET',
        headers: {
          ...(body ? { 'content-type': 'application/json' } : {}),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const isJson = String(res.headers['content-type']).includes('json');
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text,
            json: isJson && text ? (JSON.parse(text) as Record<string, unknown>) : {},
          });
        });
      },
    );
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}

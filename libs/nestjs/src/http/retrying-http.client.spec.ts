import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RetryingHttpClient } from './retrying-http.client';

describe('RetryingHttpClient', () => {
  let server: Server;
  let base: string;
  let answers: { status: number; retryAfter?: string }[];
  let hits: number;

  beforeAll(async () => {
    server = createServer((_req, res) => {
      const next = answers[Math.min(hits++, answers.length - 1)];
      res.writeHead(next.status, {
        'content-type': 'application/json',
        ...(next.retryAfter ? { 'retry-after': next.retryAfter } : {}),
      });
      res.end(JSON.stringify({ status: next.status }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    hits = 0;
  });

  it('retries a 503 after its Retry-After, then returns the answer', async () => {
    answers = [{ status: 503, retryAfter: '2' }, { status: 503, retryAfter: '1' }, { status: 200 }];
    const waits: number[] = [];
    const client = new RetryingHttpClient({
      sleep: async (ms) => void waits.push(ms),
      random: () => 0,
    });
    const answer = await client.request(`${base}/stats/u1`);
    client.close();
    expect(answer.status).toBe(200);
    expect(answer.attempts).toBe(3);
    expect(answer.json()).toEqual({ status: 200 });
    expect(waits).toEqual([2000, 1000]);
  });

  it('backs off exponentially with jitter, bounded, and gives up after maxAttempts', async () => {
    answers = [{ status: 503 }];
    const waits: number[] = [];
    const client = new RetryingHttpClient({
      maxAttempts: 5,
      baseDelayMs: 100,
      maxDelayMs: 300,
      random: () => 1,
      sleep: async (ms) => void waits.push(ms),
    });
    const answer = await client.request(`${base}/x`);
    client.close();
    expect(answer.status).toBe(503);
    expect(answer.attempts).toBe(5);
    expect(waits).toEqual([100, 200, 300, 300]);
  });

  it('caps a long Retry-After and does not retry other statuses', async () => {
    const client = new RetryingHttpClient({ maxDelayMs: 1500, random: () => 0 });
    expect(client.delayFor(1, '60')).toBe(1500);
    answers = [{ status: 404 }];
    const answer = await client.request(`${base}/x`);
    client.close();
    expect(answer.status).toBe(404);
    expect(answer.attempts).toBe(1);
  });

  it('retries refused connections, then throws the last error', async () => {
    const client = new RetryingHttpClient({ maxAttempts: 3, sleep: async () => undefined });
    await expect(client.request('http://127.0.0.1:1/x')).rejects.toMatchObject({
      code: 'ECONNREFUSED',
    });
    client.close();
  });
});

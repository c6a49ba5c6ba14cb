import { createServer } from 'node:net';
import { freePort, portIsFree } from './free-port';

describe('freePort', () => {
  it('hands out distinct listenable ports below the ephemeral range', async () => {
    const ports: number[] = [];
    for (let i = 0; i < 50; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(50);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(20_000);
      expect(port).toBeLessThan(32_000);
    }
    expect(await portIsFree(ports[0])).toBe(true);
  });

  it('says a port with a listener is not free', async () => {
    const port = await freePort();
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    try {
      expect(await portIsFree(port)).toBe(false);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    expect(await portIsFree(port)).toBe(true);
  });
});

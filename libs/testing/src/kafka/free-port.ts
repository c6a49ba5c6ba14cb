import { createServer } from 'node:net';

/**
 * Where {@link freePort} picks from: below Linux's default ephemeral range (32768–60999) and
 * above most well-known services. A port the OS hands out for `listen(0)` comes from the
 * ephemeral range, which every outgoing connection (kafkajs to the broker, HTTP clients) also
 * draws from: between the moment a caller learns such a port and the moment its child process
 * listens on it, a client's connection can take it (seen as EADDRINUSE in CI).
 */
const RANGE_START = 20_000;
const RANGE_END = 32_000;
/** Ports this process already handed out: never handed out twice. */
const handedOut = new Set<number>();

/**
 * A loopback TCP port that is free now, outside the ephemeral range, never the same twice in
 * one process. Another process can still take it before the caller listens on it (unlikely:
 * 12,000 ports, chosen at random); callers that spawn a server should retry on EADDRINUSE.
 *
 * @throws Error when 200 random candidates were all in use (the machine is out of ports).
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = RANGE_START + Math.floor(Math.random() * (RANGE_END - RANGE_START));
    if (handedOut.has(port)) continue;
    if (await portIsFree(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free loopback port found in ${RANGE_START}-${RANGE_END}`);
}

/** Whether a loopback TCP port can be listened on now (a restart on a previous port). */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    // A client that connects meanwhile is dropped, so that close() never waits for it.
    const server = createServer((socket) => socket.destroy());
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Whether `value` is a TCP port number (an integer from 1 to 65535). */
export function isPort(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 && value < 65_536;
}

/** `count` different ports from {@link freePort}. */
export async function distinctFreePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}

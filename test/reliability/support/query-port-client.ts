import { createHash, createHmac, randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

/**
 * A raw connection to an instance's query port speaking @nestjs/microservices' TCP framing
 * (`<length in characters>#<JSON>`), as anyone on the network can: whole packets, raw bytes,
 * and what comes back. Records when the server closed it.
 */
export class RawQueryConnection {
  readonly frames: unknown[] = [];
  /**
   * Resolves when the connection closed, with the ms since this side began to connect (never
   * less than the server held it, however late the client saw its connect event).
   */
  readonly closed: Promise<number>;
  private buffer = '';

  private constructor(
    readonly socket: Socket,
    private readonly openedAt: number,
  ) {
    socket.setEncoding('utf8');
    socket.on('data', (text: string) => this.receive(text));
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) =>
      socket.once('close', () => resolve(Date.now() - this.openedAt)),
    );
  }

  /** Connects (rejects when the connection is refused). */
  static open(port: number): Promise<RawQueryConnection> {
    return new Promise((resolve, reject) => {
      const startedAt = Date.now();
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => resolve(new RawQueryConnection(socket, startedAt)));
      socket.once('error', reject);
    });
  }

  /** Sends one packet (`{ pattern, data, id }`), framed. */
  send(packet: unknown): void {
    this.write(frame(packet));
  }

  /** Sends raw text; false once the server closed the connection. */
  write(text: string): boolean {
    if (this.socket.destroyed || !this.socket.writable) return false;
    this.socket.write(text);
    return true;
  }

  /** The first answer, or undefined when the connection closed without one (or `ms` passed). */
  async answer(ms = 10_000): Promise<unknown> {
    const deadline = Date.now() + ms;
    while (this.frames.length === 0 && !this.socket.destroyed && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return this.frames[0];
  }

  /**
   * The ms the connection stayed open, once the server closed it; undefined when it was still
   * open `ms` after this call (this side closes it then, so that nothing waits for ever).
   */
  async closedWithin(ms: number): Promise<number | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const closedMs = await Promise.race([
      this.closed,
      new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms))),
    ]);
    clearTimeout(timer);
    if (closedMs === undefined) this.close();
    return closedMs;
  }

  close(): void {
    this.socket.destroy();
  }

  private receive(text: string): void {
    this.buffer += text;
    for (;;) {
      const hash = this.buffer.indexOf('#');
      if (hash < 0) return;
      const length = Number(this.buffer.slice(0, hash));
      if (this.buffer.length < hash + 1 + length) return;
      this.frames.push(JSON.parse(this.buffer.slice(hash + 1, hash + 1 + length)));
      this.buffer = this.buffer.slice(hash + 1 + length);
    }
  }
}

/** One packet in Nest's TCP framing. */
export function frame(packet: unknown): string {
  const json = JSON.stringify(packet);
  return `${json.length}#${json}`;
}

/**
 * A message sealed as a member of the cluster would seal it, written from the wire format's
 * description (not from the module's code): the key is HMAC-SHA256(SHA-256(cluster secret),
 * "nest-streams instance messages v1"); the MAC is HMAC-SHA256(key, "request" then, per field,
 * "\n<UTF-8 byte length>:<field>" for pattern, sender, timestamp, nonce and body), base64url.
 * What an attacker who captured a genuine message (or the secret) holds.
 */
export function sealAsMember(
  secret: string,
  pattern: string,
  payload: unknown,
  options: { from?: string; ts?: number; nonce?: string } = {},
): Record<string, unknown> {
  const from = options.from ?? '127.0.0.1:1';
  const ts = options.ts ?? Date.now();
  const nonce = options.nonce ?? randomBytes(16).toString('base64url');
  const body = JSON.stringify(payload);
  const mac = memberMac(secret, [pattern, from, String(ts), nonce, body]);
  return { sealed: 1, pattern, from, ts, nonce, body, mac };
}

/**
 * The MAC a member computes over a request's fields (pattern, sender, timestamp, nonce, body),
 * as the wire format describes it (see {@link sealAsMember}): base64url.
 */
export function memberMac(secret: string, fields: readonly string[]): string {
  const key = createHmac('sha256', createHash('sha256').update(secret).digest())
    .update('nest-streams instance messages v1')
    .digest();
  const hmac = createHmac('sha256', key).update('request');
  for (const field of fields) hmac.update(`\n${Buffer.byteLength(field)}:`).update(field);
  return hmac.digest('base64url');
}

/** A hand-made frame: `<length>#<text>`. */
export function frameOf(text: string): string {
  return `${text.length}#${text}`;
}

/** Sends `head` then 64 KB chunks of `x` until `limit` bytes or until the server closes. */
export async function stream(
  port: number,
  head: string,
  limit: number,
): Promise<{ bytesSent: number; closedByServer: boolean; openMs: number }> {
  const conn = await RawQueryConnection.open(port);
  const chunk = 'x'.repeat(64 * 1024);
  let bytesSent = head.length;
  conn.write(head);
  let closed = false;
  void conn.closed.then(() => (closed = true));
  while (!closed && bytesSent < limit) {
    if (!conn.write(chunk)) break;
    bytesSent += chunk.length;
    if (conn.socket.writableLength > 1024 * 1024) {
      await Promise.race([
        new Promise((resolve) => conn.socket.once('drain', resolve)),
        conn.closed,
      ]);
    }
  }
  const closedByServer = closed || bytesSent < limit;
  conn.close();
  return { bytesSent, closedByServer, openMs: await conn.closed };
}

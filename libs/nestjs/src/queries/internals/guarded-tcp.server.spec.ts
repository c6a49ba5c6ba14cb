import { connect, type Socket } from 'node:net';
import { RangeQuery } from '@nest-streams/streams';
import { StreamsModuleSettings } from '../../settings/internals/streams-module.settings';
import {
  listeningQueryServer,
  type ListeningQueryServer,
} from '../../../test-support/query-server-fixtures';
import { InstanceAuthenticator } from '../../security/internals/instance.authenticator';
import { InteractiveQueryClient } from './interactive-query.client';
import { encodeStateQueryRequest, queryPattern } from './interactive-query.protocol';

const SECRET = 'guarded-spec-cluster-secret';

/** A raw connection speaking Nest's TCP framing (`<length>#<json>`), as an outsider would. */
class RawConnection {
  readonly frames: unknown[] = [];
  readonly closed: Promise<void>;
  private buffer = '';
  private constructor(readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (text: string) => {
      this.buffer += text;
      for (;;) {
        const hash = this.buffer.indexOf('#');
        if (hash < 0) return;
        const length = Number(this.buffer.slice(0, hash));
        if (this.buffer.length < hash + 1 + length) return;
        this.frames.push(JSON.parse(this.buffer.slice(hash + 1, hash + 1 + length)));
        this.buffer = this.buffer.slice(hash + 1 + length);
      }
    });
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
  }

  static async open(port: number): Promise<RawConnection> {
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    return new RawConnection(socket);
  }

  send(packet: unknown): void {
    const json = JSON.stringify(packet);
    this.socket.write(`${json.length}#${json}`);
  }
}

const within = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([
    promise,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms),
    ),
  ]);

describe('the query server as an outsider finds it (TCP)', () => {
  let listening: ListeningQueryServer;
  const settingsOn = (port: number, secret = SECRET, limits = {}) =>
    new StreamsModuleSettings({
      streams: {
        applicationId: 'guarded-spec',
        bootstrapServers: ['127.0.0.1:1'],
        applicationServer: '127.0.0.1:8080',
      },
      queries: {
        remote: {
          port,
          timeoutMs: 2000,
          authTimeoutMs: 400,
          maxRequestBytes: 64 * 1024,
          maxConnections: 4,
          ...limits,
        },
      },
      security: { clusterSecret: secret },
    });
  const request = () =>
    encodeStateQueryRequest({ storeName: 'stats-store', query: RangeQuery.withNoBounds() });
  const probe = () => ({
    version: 1,
    target: listening.endpoint,
    from: 'outsider',
    request: request(),
  });

  beforeEach(async () => {
    listening = await listeningQueryServer(
      (port) => settingsOn(port),
      () => ({
        partitionResults: [
          {
            partition: 0,
            success: true,
            result: [{ key: 'u', value: 1 }],
            position: {},
            active: true,
          },
        ],
        position: {},
      }),
    );
  });

  afterEach(async () => {
    await listening.server.close();
  });

  it('answers the probe of the issue with a refusal, reads nothing, and hangs up', async () => {
    const outsider = await RawConnection.open(listening.port);
    outsider.send({ pattern: queryPattern(listening.endpoint), data: probe(), id: 'probe-1' });
    await within(outsider.closed, 2000, 'the server closes the connection');
    expect(outsider.frames).toEqual([
      {
        id: 'probe-1',
        isDisposed: true,
        response: {
          ok: false,
          servedBy: '127.0.0.1:8080',
          failure: {
            code: 'QUERY_REFUSED',
            retriable: false,
            message:
              'refused (unauthenticated): only instances of this application sharing its security.clusterSecret, with clocks within security.replayWindowMs, are answered',
          },
        },
      },
    ]);
    expect(listening.streams.queries).toEqual([]);
    expect(listening.reasons).toEqual(['unauthenticated']);
  });

  it('answers a sealed query once, and refuses its replay and a copy sent to another target', async () => {
    const member = new InstanceAuthenticator(settingsOn(listening.port).security);
    const sealed = member.seal(queryPattern(listening.endpoint), '127.0.0.1:9999', probe());
    const first = await RawConnection.open(listening.port);
    first.send({ pattern: queryPattern(listening.endpoint), data: sealed, id: 'a' });
    await within(
      (async () => {
        while (first.frames.length === 0) await new Promise((r) => setTimeout(r, 10));
      })(),
      2000,
      'an answer',
    );
    const answer = first.frames[0] as { response: unknown };
    expect(member.openAnswer(sealed, answer.response)).toMatchObject({ payload: { ok: true } });
    expect(listening.streams.queries).toHaveLength(1);

    const replay = await RawConnection.open(listening.port);
    replay.send({ pattern: queryPattern(listening.endpoint), data: sealed, id: 'b' });
    await within(replay.closed, 2000, 'the replay is refused');
    expect(replay.frames).toMatchObject([
      { id: 'b', response: { failure: { code: 'QUERY_REFUSED' } } },
    ]);

    const elsewhere = member.seal(queryPattern('127.0.0.1:1'), '127.0.0.1:9999', probe());
    const misrouted = await RawConnection.open(listening.port);
    misrouted.send({ pattern: queryPattern(listening.endpoint), data: elsewhere, id: 'c' });
    await within(misrouted.closed, 2000, 'the misrouted one is refused');
    expect(listening.streams.queries).toHaveLength(1);
    expect(listening.reasons).toEqual(['replayed', 'wrong_target']);
    // The member's connection stays open: it was authenticated.
    first.socket.destroy();
  });

  it('refuses a query sealed with another secret', async () => {
    const other = new InstanceAuthenticator(
      settingsOn(listening.port, 'another-cluster-secret-here').security,
    );
    const conn = await RawConnection.open(listening.port);
    conn.send({
      pattern: queryPattern(listening.endpoint),
      data: other.seal(queryPattern(listening.endpoint), '127.0.0.1:9999', probe()),
      id: 'x',
    });
    await within(conn.closed, 2000, 'refused');
    expect(listening.streams.queries).toEqual([]);
    expect(listening.reasons).toEqual(['bad_signature']);
  });

  it('closes a connection on a frame that is not JSON, an event, or a pattern it does not answer', async () => {
    const notJson = await RawConnection.open(listening.port);
    notJson.socket.write('5#hello');
    const event = await RawConnection.open(listening.port);
    event.send({ pattern: queryPattern(listening.endpoint), data: probe() });
    const other = await RawConnection.open(listening.port);
    other.send({ pattern: queryPattern('127.0.0.1:1'), data: probe(), id: 'o' });
    // 10,000-deep nesting, as the pattern and as the data.
    const deep = '['.repeat(10_000) + ']'.repeat(10_000);
    const raw = (json: string) => `${json.length}#${json}`;
    const nestedPattern = await RawConnection.open(listening.port);
    nestedPattern.socket.write(raw(`{"pattern":${deep},"data":1,"id":"d1"}`));
    const nestedData = await RawConnection.open(listening.port);
    nestedData.socket.write(
      raw(`{"pattern":"${queryPattern(listening.endpoint)}","data":${deep},"id":"d2"}`),
    );
    const all = [notJson, event, other, nestedPattern, nestedData];
    await within(Promise.all(all.map((c) => c.closed)), 2000, 'all closed');
    expect(all.map((c) => c.frames.length)).toEqual([0, 0, 0, 0, 1]);
    expect(nestedData.frames).toMatchObject([
      { id: 'd2', response: { failure: { code: 'QUERY_REFUSED' } } },
    ]);
    expect(listening.reasons.sort()).toEqual(
      [
        'malformed_frame',
        'unauthenticated',
        'unauthenticated',
        'unauthenticated',
        'wrong_target',
      ].sort(),
    );
    expect(listening.streams.queries).toEqual([]);
  });

  it('closes a connection that sends too much before authenticating (a 2 GB length prefix)', async () => {
    const conn = await RawConnection.open(listening.port);
    conn.socket.write('2147483648#');
    const chunk = 'x'.repeat(16 * 1024);
    for (let i = 0; i < 16 && !conn.socket.destroyed; i++) conn.socket.write(chunk);
    await within(conn.closed, 2000, 'closed');
    expect(listening.reasons).toEqual(['oversized']);
  });

  it('closes connections that say nothing, or half a frame, within the auth timeout', async () => {
    const silent = await RawConnection.open(listening.port);
    const half = await RawConnection.open(listening.port);
    half.socket.write('100#{"pattern":');
    const started = Date.now();
    await within(Promise.all([silent.closed, half.closed]), 2000, 'both closed');
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(listening.reasons).toEqual(['auth_timeout', 'auth_timeout']);
  });

  it('holds at most maxConnections connections', async () => {
    const conns = await Promise.all(
      Array.from({ length: 6 }, () => RawConnection.open(listening.port)),
    );
    const closedEarly = await Promise.all(
      conns.map((c) =>
        within(c.closed, 200, 'closed').then(
          () => true,
          () => false,
        ),
      ),
    );
    expect(closedEarly.filter(Boolean)).toHaveLength(2);
    for (const c of conns) c.socket.destroy();
  });

  it("keeps a member's connection open past the auth timeout", async () => {
    const client = new InteractiveQueryClient(settingsOn(listening.port));
    try {
      const ask = () =>
        client.send(listening.endpoint, {
          version: 1,
          target: listening.endpoint,
          from: 'spec',
          request: request(),
        });
      expect(await ask()).toMatchObject({ ok: true });
      await new Promise((resolve) => setTimeout(resolve, 700));
      expect(await ask()).toMatchObject({ ok: true });
      expect(listening.reasons).toEqual([]);
    } finally {
      await client.close();
    }
  });
});

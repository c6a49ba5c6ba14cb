import { createHash, createHmac } from 'node:crypto';
import { StreamsModuleConfigError } from '../../errors/streams-module-config.error';
import { StreamsModuleSettings } from '../../settings/internals/streams-module.settings';
import { HopAuthenticator } from './hop-authenticator';
import { InstanceAuthenticator } from './instance.authenticator';

const A = '10.0.0.1:8080';
const B = '10.0.0.2:8080';
const SECRET = 'a-shared-secret-of-the-cluster';

describe('HopAuthenticator', () => {
  let now: number;
  beforeEach(() => {
    now = 1_700_000_000_000;
  });

  /** The hop authenticator of the instance advertised as `self`. */
  const instance = (
    self: string,
    options: { applicationId?: string; clusterSecret?: string | string[] } = {},
  ) => {
    const settings = new StreamsModuleSettings({
      streams: {
        applicationId: options.applicationId ?? 'app-1',
        bootstrapServers: ['127.0.0.1:1'],
        applicationServer: self,
      },
      security: options.clusterSecret
        ? { clusterSecret: options.clusterSecret }
        : { insecure: true },
    });
    return new HopAuthenticator(settings, new InstanceAuthenticator(settings.security, () => now));
  };

  it('signs a hop for its target, which trusts it once', () => {
    const b = instance(B);
    const headers = instance(A).sign(B, false, 'GET', '/stats/u1?x=1');
    expect(Object.keys(headers).sort()).toEqual(['x-streams-forwarded', 'x-streams-hop-token']);
    expect(headers['x-streams-forwarded']).toBe(A);
    expect(headers['x-streams-hop-token']).toMatch(
      new RegExp(`^${B} ${now} [A-Za-z0-9_-]{22} [A-Za-z0-9_-]{43}$`),
    );
    expect(b.verify(headers, 'GET', '/stats/u1?x=1')).toEqual({ hop: { from: A, standby: false } });
    expect(b.verify(headers, 'GET', '/stats/u1?x=1')).toEqual({ refused: 'replayed', from: A });

    const standby = instance(A).sign(B, true, 'POST', '/o');
    expect(standby['x-streams-standby-read']).toBe('true');
    expect(b.verify(standby, 'post', '/o')).toEqual({ hop: { from: A, standby: true } });
  });

  it('refuses a hop for another instance, and one outside the replay window', () => {
    const toA = instance(B).sign(A, false, 'GET', '/k');
    expect(instance(B).verify(toA, 'GET', '/k')).toEqual({ refused: 'wrong_target', from: B });
    const late = instance(A).sign(B, false, 'GET', '/k');
    now += 30_001;
    expect(instance(B).verify(late, 'GET', '/k')).toEqual({ refused: 'expired', from: A });
  });

  it('routes a request without hop headers as a client request, and refuses forged or altered ones', () => {
    const b = instance(B);
    const good = () => instance(A).sign(B, false, 'GET', '/stats/u1');
    expect(b.verify({}, 'GET', '/stats/u1')).toEqual({});
    expect(b.verify({ 'x-streams-forwarded': A }, 'GET', '/stats/u1')).toEqual({
      refused: 'unauthenticated',
      from: A,
    });
    expect(b.verify({ 'x-streams-standby-read': 'true' }, 'GET', '/stats/u1')).toEqual({
      refused: 'unauthenticated',
      from: undefined,
    });
    for (const token of ['0'.repeat(64), 'short', '', `${B} soon n m`, `${B} 1 n`]) {
      expect(b.verify({ ...good(), 'x-streams-hop-token': token }, 'GET', '/stats/u1')).toEqual({
        refused: 'unauthenticated',
        from: A,
      });
    }
    const altered: [Record<string, string | string[]>, string, string][] = [
      [{ ...good(), 'x-streams-forwarded': 'evil:80' }, 'GET', '/stats/u1'],
      [{ ...good(), 'x-streams-standby-read': 'true' }, 'GET', '/stats/u1'],
      [good(), 'GET', '/stats/u2'],
      [good(), 'DELETE', '/stats/u1'],
    ];
    for (const [headers, method, url] of altered) {
      expect(b.verify(headers, method, url).refused).toBe('bad_signature');
    }
    const one = good();
    expect(
      b.verify({ ...one, 'x-streams-hop-token': [one['x-streams-hop-token']] }, 'GET', '/stats/u1'),
    ).toEqual({
      hop: { from: A, standby: false },
    });
    const two = good();
    expect(
      b.verify(
        { ...two, 'x-streams-hop-token': [two['x-streams-hop-token'], 'x'] },
        'GET',
        '/stats/u1',
      ),
    ).toEqual({ refused: 'unauthenticated', from: A });
  });

  it('refuses the token of an earlier version (an HMAC without time or nonce), as a rolling update meets it', () => {
    // What an instance before the one scheme sent: hex HMAC-SHA256(SHA-256(secret)) over the hop.
    const key = createHash('sha256').update(SECRET).digest();
    const v1 = createHmac('sha256', key).update(`${A}\nowner\nGET\n/stats/u1`).digest('hex');
    const headers = { 'x-streams-forwarded': A, 'x-streams-hop-token': v1 };
    expect(instance(B, { clusterSecret: SECRET }).verify(headers, 'GET', '/stats/u1')).toEqual({
      refused: 'unauthenticated',
      from: A,
    });
  });

  it('keys the HMAC with security.clusterSecret (any of a list), else with a key derived from applicationId', () => {
    const other = 'another-secret-of-the-cluster';
    const hop = (options: Parameters<typeof instance>[1]) =>
      instance(A, options).sign(B, false, 'GET', '/k');
    const verify = (headers: Record<string, string>, options: Parameters<typeof instance>[1]) =>
      instance(B, options).verify(headers, 'GET', '/k');
    expect(verify(hop({ clusterSecret: SECRET }), { clusterSecret: SECRET })).toEqual({
      hop: { from: A, standby: false },
    });
    expect(verify(hop({}), { clusterSecret: SECRET }).refused).toBe('bad_signature');
    expect(verify(hop({}), { applicationId: 'app-2' }).refused).toBe('bad_signature');
    // A rotation: [new, old] signs with the new secret; [old, new] and [new] accept it.
    const rotated = { clusterSecret: [other, SECRET] };
    expect(verify(hop(rotated), { clusterSecret: [SECRET, other] }).hop).toBeDefined();
    expect(verify(hop(rotated), { clusterSecret: other }).hop).toBeDefined();
    expect(verify(hop(rotated), { clusterSecret: SECRET }).refused).toBe('bad_signature');
    expect(() => instance(A, { clusterSecret: 'short' })).toThrow(StreamsModuleConfigError);
  });
});

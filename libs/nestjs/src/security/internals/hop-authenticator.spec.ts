import { StreamsModuleConfigError } from '../../errors/streams-module-config.error';
import { StreamsModuleSettings } from '../../settings/internals/streams-module.settings';
import { HopAuthenticator } from './hop-authenticator';

function authenticator(options: { applicationId?: string; clusterSecret?: string } = {}) {
  return new HopAuthenticator(
    new StreamsModuleSettings({
      streams: {
        applicationId: options.applicationId ?? 'app-1',
        bootstrapServers: ['127.0.0.1:1'],
        applicationServer: '127.0.0.1:8080',
      },
      security: options.clusterSecret
        ? { clusterSecret: options.clusterSecret }
        : { insecure: true },
    }),
  );
}

describe('HopAuthenticator', () => {
  it('signs a hop that another instance with the same key accepts', () => {
    const headers = authenticator().sign('127.0.0.1:8080', false, 'GET', '/stats/u1?x=1');
    expect(Object.keys(headers).sort()).toEqual(['x-streams-forwarded', 'x-streams-hop-token']);
    expect(headers['x-streams-hop-token']).toMatch(/^[0-9a-f]{64}$/);
    expect(authenticator().verify(headers, 'GET', '/stats/u1?x=1')).toEqual({
      from: '127.0.0.1:8080',
      standby: false,
    });
    const standby = authenticator().sign('127.0.0.1:8080', true, 'POST', '/o');
    expect(standby['x-streams-standby-read']).toBe('true');
    expect(authenticator().verify(standby, 'post', '/o')).toEqual({
      from: '127.0.0.1:8080',
      standby: true,
    });
  });

  it('rejects a missing, forged or altered hop', () => {
    const a = authenticator();
    const good = a.sign('127.0.0.1:8080', false, 'GET', '/stats/u1');
    expect(a.verify({}, 'GET', '/stats/u1')).toBeUndefined();
    expect(
      a.verify({ 'x-streams-forwarded': '127.0.0.1:8080' }, 'GET', '/stats/u1'),
    ).toBeUndefined();
    expect(
      a.verify({ ...good, 'x-streams-hop-token': '0'.repeat(64) }, 'GET', '/stats/u1'),
    ).toBeUndefined();
    expect(
      a.verify({ ...good, 'x-streams-hop-token': 'short' }, 'GET', '/stats/u1'),
    ).toBeUndefined();
    expect(
      a.verify({ ...good, 'x-streams-forwarded': 'evil:80' }, 'GET', '/stats/u1'),
    ).toBeUndefined();
    expect(
      a.verify({ ...good, 'x-streams-standby-read': 'true' }, 'GET', '/stats/u1'),
    ).toBeUndefined();
    expect(a.verify(good, 'GET', '/stats/u2')).toBeUndefined();
    expect(a.verify(good, 'DELETE', '/stats/u1')).toBeUndefined();
    expect(
      a.verify(
        { ...good, 'x-streams-hop-token': [good['x-streams-hop-token']] },
        'GET',
        '/stats/u1',
      ),
    ).toEqual({ from: '127.0.0.1:8080', standby: false });
    expect(
      a.verify(
        { ...good, 'x-streams-hop-token': [good['x-streams-hop-token'], 'x'] },
        'GET',
        '/stats/u1',
      ),
    ).toBeUndefined();
  });

  it('keys the HMAC with security.clusterSecret, else with a key derived from applicationId', () => {
    const hop = (a: HopAuthenticator) => a.sign('h:1', false, 'GET', '/k');
    const secret = 'a-shared-secret-of-the-cluster';
    expect(
      authenticator({ clusterSecret: secret }).verify(
        hop(authenticator({ clusterSecret: secret })),
        'GET',
        '/k',
      ),
    ).toBeDefined();
    expect(
      authenticator({ clusterSecret: secret }).verify(hop(authenticator()), 'GET', '/k'),
    ).toBeUndefined();
    expect(
      authenticator({ applicationId: 'app-2' }).verify(hop(authenticator()), 'GET', '/k'),
    ).toBeUndefined();
    expect(() => authenticator({ clusterSecret: 'short' })).toThrow(StreamsModuleConfigError);
  });
});

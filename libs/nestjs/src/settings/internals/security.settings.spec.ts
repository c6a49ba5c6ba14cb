import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestPki } from '../../../../../tools/tls/test-pki';
import { StreamsModuleConfigError } from '../../errors/streams-module-config.error';
import type { StreamsModuleOptions } from '../streams-module-options.interface';
import { StreamsModuleSettings } from './streams-module.settings';

const streams = { applicationId: 'security-spec', bootstrapServers: ['127.0.0.1:9092'] };
const secret = 'security-spec-cluster-secret';

const errorOf = (options: Partial<StreamsModuleOptions>): Error => {
  try {
    new StreamsModuleSettings({ streams, ...options });
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the options to be refused');
};

describe('StreamsModuleSettings: security', () => {
  const MISSING =
    'security.clusterSecret is not set, but this instance works with other instances (streams.applicationServer or queries.remote is set): set security.clusterSecret to a random secret of 16+ characters shared by every instance (e.g. from a Kubernetes Secret). Without it anyone who can reach the query port could read every store. For local development only, security.insecure: true starts without one.';

  it.each([
    ['an advertised application.server', { streams: { ...streams, applicationServer: 'a:1' } }],
    ['remote queries', { queries: { remote: { port: 18080 } } }],
  ])('refuses to start an instance with %s and no cluster secret, naming the option', (_, o) => {
    const error = errorOf(o);
    expect(error).toBeInstanceOf(StreamsModuleConfigError);
    expect(error.message).toBe(MISSING);
  });

  it('starts a lone instance without a secret, and any instance with one or with insecure', () => {
    const lone = new StreamsModuleSettings({ streams });
    expect(lone.security.derivedKey).toBe(true);
    const multi = { streams: { ...streams, applicationServer: 'a:1' } };
    const insecure = new StreamsModuleSettings({ ...multi, security: { insecure: true } });
    expect(insecure.security.derivedKey).toBe(true);
    expect(insecure.security.messageKeys).toEqual(lone.security.messageKeys);
    expect(insecure.security.secretDigests).toEqual([]);
    const secured = new StreamsModuleSettings({ ...multi, security: { clusterSecret: secret } });
    expect(secured.security.derivedKey).toBe(false);
    expect(secured.security.messageKeys).toHaveLength(1);
    expect(secured.security.messageKeys).not.toEqual(lone.security.messageKeys);
    // The message key is derived from the secret (HMAC-SHA256(SHA-256(secret), label)), never the secret itself.
    const digest = createHash('sha256').update(secret).digest();
    expect(secured.security.secretDigests).toEqual([digest]);
    expect(secured.security.messageKeys[0]).toEqual(
      createHmac('sha256', digest).update('nest-streams instance messages v1').digest(),
    );
    expect(secured.security).toMatchObject({ replayWindowMs: 30_000, tls: undefined });
  });

  it('takes a list of cluster secrets: one key each, in order (the first signs)', () => {
    const next = 'security-spec-next-cluster-secret';
    const rotating = new StreamsModuleSettings({
      streams: { ...streams, applicationServer: 'a:1' },
      security: { clusterSecret: [next, secret] },
    });
    const one = (s: string) =>
      new StreamsModuleSettings({ streams, security: { clusterSecret: s } }).security;
    expect(rotating.security.messageKeys).toEqual([
      one(next).messageKeys[0],
      one(secret).messageKeys[0],
    ]);
    expect(rotating.security.secretDigests).toEqual([
      one(next).secretDigests[0],
      one(secret).secretDigests[0],
    ]);
    expect(rotating.security.derivedKey).toBe(false);
  });

  it.each([
    [
      { clusterSecret: 'short' },
      'security.clusterSecret must be a string of 16 characters or more',
    ],
    [
      { clusterSecret: [secret, 'short'] },
      'security.clusterSecret[1] must be a string of 16 characters or more',
    ],
    [
      { clusterSecret: [] },
      'security.clusterSecret must be a secret or a non-empty list of secrets (the first signs, any verifies)',
    ],
    [{ insecure: 'yes' }, 'security.insecure must be true or false, got yes'],
    [
      { clusterSecret: secret, replayWindowMs: 500 },
      'security.replayWindowMs must be a number of ms from 1000 to 600000, got 500',
    ],
    [
      { tls: { cert: '', key: 'k', ca: 'c' } },
      "security.tls.cert must be PEM text (a string or a Buffer): this instance's certificate chain",
    ],
    [
      { tls: { cert: 'c', key: 'k', ca: [] } },
      'security.tls.ca must be the PEM certificate(s) of the CA that signed every instance certificate',
    ],
  ])('refuses security %j', (security, message) => {
    const error = errorOf({ security: security as never });
    expect(error).toBeInstanceOf(StreamsModuleConfigError);
    expect(error.message).toBe(message);
  });

  describe('with certificates', () => {
    let dir: string;
    let pki: TestPki;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'security-spec-'));
      pki = TestPki.create(dir);
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('takes a certificate, its key and the CA', () => {
      const { cert, key } = pki.issue('instance', ['127.0.0.1']);
      const settings = new StreamsModuleSettings({
        streams,
        security: { clusterSecret: secret, tls: { cert, key, ca: pki.ca } },
      });
      expect(settings.security.tls).toEqual({ cert, key, passphrase: undefined, ca: [pki.ca] });
    });

    it('refuses a key that does not belong to the certificate', () => {
      const one = pki.issue('one', ['127.0.0.1']);
      const other = pki.issue('other', ['127.0.0.1']);
      const error = errorOf({ security: { tls: { cert: one.cert, key: other.key, ca: pki.ca } } });
      expect(error).toBeInstanceOf(StreamsModuleConfigError);
      expect(error.message).toMatch(
        /^security\.tls cannot be used: .*key values mismatch.* \(check that cert, key and passphrase belong together and are PEM\)$/,
      );
    });
  });
});

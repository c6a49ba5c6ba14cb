import { securitySettings } from '../../settings/internals/security.settings';
import { InstanceAuthenticator, type SealedMessage } from './instance.authenticator';

const PATTERN = 'nest-streams.query:10.0.0.2:18080';
const SECRET = 'a-cluster-secret-of-32-characters';
const NEXT_SECRET = 'the-next-cluster-secret-32-chars';
const security = (clusterSecret: string | readonly string[] = SECRET, replayWindowMs = 30_000) =>
  securitySettings({ clusterSecret, replayWindowMs }, 'auth-spec', true);
const SENDER = '10.0.0.1:18080';

describe('InstanceAuthenticator', () => {
  let now: number;
  const clock = () => now;
  const authenticator = (secrets?: string | readonly string[]) =>
    new InstanceAuthenticator(security(secrets), clock);
  /** What another instance seals. */
  const sender = (secrets?: string | readonly string[]) => {
    const a = authenticator(secrets);
    return {
      seal: (pattern: string, payload: unknown) => a.seal(pattern, SENDER, payload),
      openAnswer: (request: SealedMessage, data: unknown) => a.openAnswer(request, data),
    };
  };
  const receiver = (secrets?: string | readonly string[]) => authenticator(secrets);

  beforeEach(() => {
    now = 1_700_000_000_000;
  });

  it('opens what a member sealed, once, and seals the answer for that very request', () => {
    const payload = { version: 1, request: { storeName: 's', query: { type: 'key', key: 'ü' } } };
    const sealed = sender().seal(PATTERN, payload);
    expect(sealed).toMatchObject({ sealed: 1, pattern: PATTERN, from: '10.0.0.1:18080', ts: now });
    expect(sealed.body).toBe(JSON.stringify(payload));
    const server = receiver();
    // Through JSON, as the transport carries it.
    const opened = server.open(PATTERN, JSON.parse(JSON.stringify(sealed)));
    expect(opened).toEqual({ ok: true, payload, from: '10.0.0.1:18080', nonce: sealed.nonce });

    const answer = JSON.parse(JSON.stringify(server.sealAnswer(PATTERN, sealed.nonce, [1, 'x'])));
    expect(sender().openAnswer(sealed, answer)).toEqual({ payload: [1, 'x'] });
    // Bound to the request: not the answer to another one, not altered.
    const other = sender().seal(PATTERN, payload);
    expect(sender().openAnswer(other, answer)).toBeUndefined();
    expect(sender().openAnswer(sealed, { ...answer, body: '[1,"y"]' })).toBeUndefined();
    expect(sender().openAnswer(sealed, { ok: true, result: [1] })).toBeUndefined();
  });

  it('refuses a request without the envelope, as an outsider sends it', () => {
    const server = receiver();
    for (const data of [
      { version: 1, target: '10.0.0.2:18080', from: 'outsider', request: { storeName: 's' } },
      null,
      'text',
      [1, 2],
      { sealed: 1, pattern: PATTERN, from: 'x', ts: now, nonce: 'n', body: '{}' },
      { sealed: 1, pattern: PATTERN, from: 'x', ts: 'now', nonce: 'n', body: '{}', mac: 'm' },
      { ...sender().seal(PATTERN, {}), from: 'x'.repeat(2000) },
    ]) {
      expect(server.open(PATTERN, data)).toEqual({ ok: false, reason: 'unauthenticated' });
    }
  });

  it('refuses a forged or altered message, and one sealed with another secret', () => {
    const server = receiver();
    const sealed = sender().seal(PATTERN, { storeName: 'stats-store' });
    const forged: SealedMessage[] = [
      { ...sealed, body: JSON.stringify({ storeName: 'other-store' }) },
      { ...sealed, from: '10.0.0.9:18080' },
      { ...sealed, ts: sealed.ts + 1 },
      { ...sealed, nonce: 'another-nonce' },
      { ...sealed, mac: Buffer.alloc(32).toString('base64url') },
      { ...sealed, mac: sealed.mac.slice(0, 20) },
      sender('another-cluster-secret-32-chars!').seal(PATTERN, { storeName: 'stats-store' }),
    ];
    for (const message of forged) {
      expect(server.open(PATTERN, message)).toEqual({ ok: false, reason: 'bad_signature' });
    }
    // The genuine one still passes: none of the forgeries used up its nonce.
    expect(server.open(PATTERN, sealed).ok).toBe(true);
  });

  it('refuses a replay within the window, and any copy outside it', () => {
    const server = receiver();
    const sealed = sender().seal(PATTERN, { q: 1 });
    expect(server.open(PATTERN, sealed).ok).toBe(true);
    expect(server.open(PATTERN, sealed)).toMatchObject({ ok: false, reason: 'replayed' });
    now += 30_001;
    expect(server.open(PATTERN, sealed)).toMatchObject({ ok: false, reason: 'expired' });
    // A message from a clock ahead by more than the window is refused too.
    const ahead = sender().seal(PATTERN, { q: 2 });
    now -= 30_001;
    expect(server.open(PATTERN, ahead)).toMatchObject({ ok: false, reason: 'expired' });
    now += 1;
    expect(server.open(PATTERN, ahead).ok).toBe(true);
  });

  it('forgets nonces once their messages are too old to pass anyway', () => {
    const server = receiver();
    for (let i = 0; i < 5; i++)
      expect(server.open(PATTERN, sender().seal(PATTERN, i)).ok).toBe(true);
    expect(server.rememberedNonces).toBe(5);
    now += 30_001;
    expect(server.open(PATTERN, sender().seal(PATTERN, 'later')).ok).toBe(true);
    expect(server.rememberedNonces).toBe(1);
  });

  it('refuses a genuine message sealed for another instance', () => {
    const sealed = sender().seal('nest-streams.query:10.0.0.3:18080', { q: 1 });
    expect(receiver().open(PATTERN, sealed)).toEqual({
      ok: false,
      reason: 'wrong_target',
      from: '10.0.0.1:18080',
    });
  });

  it('signs with the first cluster secret and verifies with any, through a rotation', () => {
    const old = sender([SECRET]);
    const both = sender([SECRET, NEXT_SECRET]);
    const swapped = sender([NEXT_SECRET, SECRET]);
    const next = sender([NEXT_SECRET]);
    // Step 1 ([old, new]) still signs with the old secret: instances not yet restarted accept it.
    expect(receiver([SECRET]).open(PATTERN, both.seal(PATTERN, 1)).ok).toBe(true);
    // Step 2 ([new, old]) signs with the new one: step-1 instances accept it, and it accepts theirs.
    expect(receiver([SECRET, NEXT_SECRET]).open(PATTERN, swapped.seal(PATTERN, 2)).ok).toBe(true);
    expect(receiver([NEXT_SECRET, SECRET]).open(PATTERN, both.seal(PATTERN, 3)).ok).toBe(true);
    // Step 3 ([new]) and step 2 agree; the old secret alone no longer opens anything.
    expect(receiver([NEXT_SECRET, SECRET]).open(PATTERN, next.seal(PATTERN, 4)).ok).toBe(true);
    expect(receiver([NEXT_SECRET]).open(PATTERN, swapped.seal(PATTERN, 5)).ok).toBe(true);
    expect(receiver([NEXT_SECRET]).open(PATTERN, old.seal(PATTERN, 6))).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    // The old secret alone does not accept the new one's messages (skipping step 1 breaks).
    expect(receiver([SECRET]).open(PATTERN, swapped.seal(PATTERN, 7))).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    // Answers too: sealed with the first secret, opened with any.
    const server = receiver([NEXT_SECRET, SECRET]);
    const request = both.seal(PATTERN, 8);
    const opened = server.open(PATTERN, request);
    expect(opened.ok).toBe(true);
    const answer = server.sealAnswer(PATTERN, request.nonce, 'yes');
    expect(both.openAnswer(request, answer)).toEqual({ payload: 'yes' });
    expect(old.openAnswer(request, answer)).toBeUndefined();
  });

  it('opens a text body as it was sealed, and refuses a JSON payload that does not parse', () => {
    const a = authenticator();
    const sealed = a.sealBody('nest-streams.hop:10.0.0.2:8080', SENDER, 'owner GET /stats/ü?x=1');
    expect(receiver().openBody('nest-streams.hop:10.0.0.2:8080', sealed)).toEqual({
      ok: true,
      body: 'owner GET /stats/ü?x=1',
      from: SENDER,
      nonce: sealed.nonce,
    });
    const notJson = a.sealBody(PATTERN, SENDER, '{not json');
    expect(receiver().open(PATTERN, notJson)).toEqual({
      ok: false,
      reason: 'malformed_frame',
      from: SENDER,
    });
  });
});

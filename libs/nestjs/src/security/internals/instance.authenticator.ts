import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SecuritySettings } from '../../settings/internals/security.settings';
import { NonceCache } from './nonce-cache';

/**
 * A message between instances, sealed: the payload as text (`body`), the pattern it is meant
 * for (which names the target instance: `nest-streams.query:<query endpoint>` for a query,
 * `nest-streams.hop:<application.server>` for a forwarded HTTP request), the sender, a
 * timestamp and a random nonce, and an HMAC-SHA256 over all of them keyed with the cluster
 * secret. The body is looked into only once the HMAC checked out.
 */
export interface SealedMessage {
  readonly sealed: 1;
  /** The message pattern it is meant for, naming the target instance. */
  readonly pattern: string;
  /** The sender (its query endpoint or `application.server`). */
  readonly from: string;
  /** When it was sealed (epoch ms, the sender's clock). */
  readonly ts: number;
  /** 16 random bytes (base64url): a message is accepted once. */
  readonly nonce: string;
  /** The payload: a query as JSON; a hop's request line (`owner GET /stats/u1`). */
  readonly body: string;
  /** HMAC-SHA256 (base64url) over pattern, sender, timestamp, nonce and body. */
  readonly mac: string;
}

/** An answer, sealed: bound to the request's pattern and nonce. */
export interface SealedAnswer {
  readonly sealed: 1;
  readonly nonce: string;
  readonly body: string;
  readonly mac: string;
}

/**
 * Why a message was refused: no envelope at all (`unauthenticated`), a wrong HMAC (forged,
 * altered, made for another request, or another cluster secret: `bad_signature`), a timestamp
 * outside the replay window (`expired`), a nonce already seen (`replayed`), sealed for another
 * instance or message type (`wrong_target`), too many messages in the window to remember
 * (`overloaded`); and, for the query port's connection guard, a frame that is not a message
 * (`malformed_frame`), too much data before authenticating (`oversized`), and no
 * authenticated message in time (`auth_timeout`).
 */
export type RefusalReason =
  | 'unauthenticated'
  | 'bad_signature'
  | 'expired'
  | 'replayed'
  | 'wrong_target'
  | 'overloaded'
  | 'malformed_frame'
  | 'oversized'
  | 'auth_timeout';

/** What opening a message can refuse it for (the rest are the connection guard's). */
export const MESSAGE_REFUSAL_REASONS = [
  'unauthenticated',
  'bad_signature',
  'expired',
  'replayed',
  'wrong_target',
  'overloaded',
] as const satisfies readonly RefusalReason[];

/** Every refusal reason, for metrics. */
export const REFUSAL_REASONS: readonly RefusalReason[] = [
  ...MESSAGE_REFUSAL_REASONS,
  'malformed_frame',
  'oversized',
  'auth_timeout',
];

/** The outcome of opening a message: its body text, or why it is refused. */
export type OpenedBody =
  | { readonly ok: true; readonly body: string; readonly from: string; readonly nonce: string }
  | { readonly ok: false; readonly reason: RefusalReason; readonly from?: string };

/** The outcome of opening a message whose body is JSON: its payload, or why it is refused. */
export type OpenedMessage =
  | { readonly ok: true; readonly payload: unknown; readonly from: string; readonly nonce: string }
  | { readonly ok: false; readonly reason: RefusalReason; readonly from?: string };

const MAC_BYTES = 32;
const MAX_FIELD_LENGTH = 1024;

/**
 * The one authentication scheme between the instances of an application, for the query
 * transport and for forwarded HTTP requests alike: a message is sealed for a pattern naming
 * its target, with the sender, a timestamp, a one-time nonce and an HMAC-SHA256 keyed with
 * the cluster secret (the first of `security.clusterSecret`; any of them verifies). The
 * receiving side checks, in order: the envelope's shape, the HMAC (constant time), the age
 * (`security.replayWindowMs`), the target, the nonce (accepted once); only then is the body
 * looked into. One instance per application instance, so every channel shares the nonces seen.
 */
export class InstanceAuthenticator {
  private readonly nonces: NonceCache;

  constructor(
    private readonly security: SecuritySettings,
    private readonly clock: () => number = Date.now,
  ) {
    this.nonces = new NonceCache(security.replayWindowMs);
  }

  /** Seals `payload` (as JSON) from `from` for the instance answering `pattern`. */
  seal(pattern: string, from: string, payload: unknown): SealedMessage {
    return this.sealBody(pattern, from, JSON.stringify(payload));
  }

  /** Seals `body` (text) from `from` for the instance answering `pattern`. */
  sealBody(pattern: string, from: string, body: string): SealedMessage {
    const ts = this.clock();
    const nonce = randomBytes(16).toString('base64url');
    const mac = this.mac(
      this.security.messageKeys[0],
      'request',
      pattern,
      from,
      String(ts),
      nonce,
      body,
    );
    return { sealed: 1, pattern, from, ts, nonce, body, mac };
  }

  /**
   * Opens a message received on `pattern` whose body is JSON: its payload, or why it is
   * refused. A refused message's body is never parsed.
   */
  open(pattern: string, data: unknown): OpenedMessage {
    const opened = this.openBody(pattern, data);
    if (!opened.ok) return opened;
    try {
      return { ok: true, payload: JSON.parse(opened.body), from: opened.from, nonce: opened.nonce };
    } catch {
      return { ok: false, reason: 'malformed_frame', from: opened.from };
    }
  }

  /** Opens a message received on `pattern`: its body text, or why it is refused. */
  openBody(pattern: string, data: unknown): OpenedBody {
    if (typeof data !== 'object' || data === null) return { ok: false, reason: 'unauthenticated' };
    const m = data as Partial<Record<keyof SealedMessage, unknown>>;
    if (
      m.sealed !== 1 ||
      !boundedString(m.pattern) ||
      !boundedString(m.from) ||
      typeof m.ts !== 'number' ||
      !Number.isFinite(m.ts) ||
      !boundedString(m.nonce) ||
      typeof m.body !== 'string' ||
      !boundedString(m.mac)
    ) {
      return { ok: false, reason: 'unauthenticated' };
    }
    const fields = ['request', m.pattern, m.from, String(m.ts), m.nonce, m.body];
    if (!this.verifies(m.mac, fields)) return { ok: false, reason: 'bad_signature' };
    const now = this.clock();
    if (Math.abs(now - m.ts) > this.security.replayWindowMs) {
      return { ok: false, reason: 'expired', from: m.from };
    }
    if (m.pattern !== pattern) return { ok: false, reason: 'wrong_target', from: m.from };
    const replay = this.nonces.check(m.nonce, m.ts, now);
    if (replay !== 'accepted') {
      return { ok: false, reason: replay === 'full' ? 'overloaded' : 'replayed', from: m.from };
    }
    return { ok: true, body: m.body, from: m.from, nonce: m.nonce };
  }

  /** Seals the answer to the message with `nonce` received on `pattern`. */
  sealAnswer(pattern: string, nonce: string, payload: unknown): SealedAnswer {
    const body = JSON.stringify(payload);
    const mac = this.mac(this.security.messageKeys[0], 'answer', pattern, nonce, body);
    return { sealed: 1, nonce, body, mac };
  }

  /**
   * Opens the answer to `request`: its payload, or undefined when it is not an answer sealed
   * with this cluster's secret for that very request.
   */
  openAnswer(request: SealedMessage, data: unknown): { payload: unknown } | undefined {
    if (typeof data !== 'object' || data === null) return undefined;
    const a = data as Partial<Record<keyof SealedAnswer, unknown>>;
    if (
      a.sealed !== 1 ||
      a.nonce !== request.nonce ||
      typeof a.body !== 'string' ||
      !boundedString(a.mac)
    ) {
      return undefined;
    }
    if (!this.verifies(a.mac, ['answer', request.pattern, request.nonce, a.body])) {
      return undefined;
    }
    try {
      return { payload: JSON.parse(a.body) };
    } catch {
      return undefined;
    }
  }

  /** Live nonces remembered (for tests and diagnostics). */
  get rememberedNonces(): number {
    return this.nonces.size;
  }

  /** Whether `given` is the MAC of `fields` under any of the cluster's keys. */
  private verifies(given: string, [kind, ...fields]: string[]): boolean {
    return this.security.messageKeys.some((key) =>
      sameMac(given, this.mac(key, kind as 'request' | 'answer', ...fields)),
    );
  }

  private mac(key: Buffer, kind: 'request' | 'answer', ...fields: string[]): string {
    const hmac = createHmac('sha256', key).update(kind);
    // Each field with its length, so that no two field lists sign the same bytes.
    for (const field of fields) hmac.update(`\n${Buffer.byteLength(field)}:`).update(field);
    return hmac.digest('base64url');
  }
}

function boundedString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_FIELD_LENGTH;
}

/** Constant-time comparison of two base64url MACs (a wrong length is simply not equal). */
function sameMac(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'base64url');
  const b = Buffer.from(expected, 'base64url');
  return a.length === MAC_BYTES && b.length === MAC_BYTES && timingSafeEqual(a, b);
}

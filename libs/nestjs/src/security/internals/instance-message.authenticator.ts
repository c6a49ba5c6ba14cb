import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SecuritySettings } from '../../settings/internals/security.settings';
import { NonceCache } from './nonce-cache';

/**
 * A message between instances, sealed: the payload as JSON text (`body`), the pattern it is
 * meant for (which names the target instance), the sender, a timestamp and a random nonce,
 * and an HMAC-SHA256 over all of them keyed with the cluster secret. The body is parsed only
 * once the HMAC checked out, so nothing an outsider sends is ever looked into.
 */
export interface SealedMessage {
  readonly sealed: 1;
  /** The message pattern it is meant for (`nest-streams.query:<target endpoint>`). */
  readonly pattern: string;
  /** The sender's endpoint (for logs). */
  readonly from: string;
  /** When it was sealed (epoch ms, the sender's clock). */
  readonly ts: number;
  /** 16 random bytes (base64url): a message is accepted once. */
  readonly nonce: string;
  /** The payload, JSON. */
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
 * Why a message was refused: no envelope at all (`unauthenticated`), a wrong HMAC (forged, or
 * another cluster secret: `bad_signature`), a timestamp outside the replay window (`expired`),
 * a nonce already seen (`replayed`), sealed for another instance or message type
 * (`wrong_target`), too many messages in the window to remember (`overloaded`); and, for the
 * connection guard, a frame that is not a message (`malformed_frame`), too much data before
 * authenticating (`oversized`), and no authenticated message in time (`auth_timeout`).
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

/** Every refusal reason, for metrics. */
export const REFUSAL_REASONS: readonly RefusalReason[] = [
  'unauthenticated',
  'bad_signature',
  'expired',
  'replayed',
  'wrong_target',
  'overloaded',
  'malformed_frame',
  'oversized',
  'auth_timeout',
];

/** The outcome of opening a message. */
export type OpenedMessage =
  | { readonly ok: true; readonly payload: unknown; readonly from: string; readonly nonce: string }
  | { readonly ok: false; readonly reason: RefusalReason; readonly from?: string };

const MAC_BYTES = 32;
const MAX_FIELD_LENGTH = 1024;

/**
 * Seals and opens the messages instances exchange (whatever request they carry): HMAC-SHA256
 * with the cluster secret's message key, checked in constant time, a replay window on the
 * timestamp and a nonce accepted once. The receiving side checks, in order: the envelope's
 * shape, the HMAC, the age, the target, the nonce; only then is the body parsed.
 */
export class InstanceMessageAuthenticator {
  private readonly nonces: NonceCache;

  constructor(
    private readonly security: SecuritySettings,
    private readonly self: string,
    private readonly clock: () => number = Date.now,
  ) {
    this.nonces = new NonceCache(security.replayWindowMs);
  }

  /** Seals `payload` for the instance answering `pattern`. */
  seal(pattern: string, payload: unknown): SealedMessage {
    const ts = this.clock();
    const nonce = randomBytes(16).toString('base64url');
    const body = JSON.stringify(payload);
    return {
      sealed: 1,
      pattern,
      from: this.self,
      ts,
      nonce,
      body,
      mac: this.mac('request', pattern, this.self, String(ts), nonce, body),
    };
  }

  /**
   * Opens a message received on `pattern`: its payload, or why it is refused. A refused
   * message's payload is never parsed.
   */
  open(pattern: string, data: unknown): OpenedMessage {
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
    const expected = this.mac('request', m.pattern, m.from, String(m.ts), m.nonce, m.body);
    if (!sameMac(m.mac, expected)) return { ok: false, reason: 'bad_signature' };
    const now = this.clock();
    if (Math.abs(now - m.ts) > this.security.replayWindowMs) {
      return { ok: false, reason: 'expired', from: m.from };
    }
    if (m.pattern !== pattern) return { ok: false, reason: 'wrong_target', from: m.from };
    const replay = this.nonces.check(m.nonce, m.ts, now);
    if (replay !== 'accepted') {
      return { ok: false, reason: replay === 'full' ? 'overloaded' : 'replayed', from: m.from };
    }
    let payload: unknown;
    try {
      payload = JSON.parse(m.body);
    } catch {
      return { ok: false, reason: 'malformed_frame', from: m.from };
    }
    return { ok: true, payload, from: m.from, nonce: m.nonce };
  }

  /** Seals the answer to the message with `nonce` received on `pattern`. */
  sealAnswer(pattern: string, nonce: string, payload: unknown): SealedAnswer {
    const body = JSON.stringify(payload);
    return { sealed: 1, nonce, body, mac: this.mac('answer', pattern, nonce, body) };
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
    if (!sameMac(a.mac, this.mac('answer', request.pattern, request.nonce, a.body))) {
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

  private mac(kind: 'request' | 'answer', ...fields: string[]): string {
    const hmac = createHmac('sha256', this.security.queryKey).update(kind);
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

import { createHash, createHmac, randomBytes } from 'node:crypto';
import { memberMac } from '../../reliability/support/query-port-client';

/** What a hop is signed for: the instances, the kind of read and the request line. */
export interface HopClaim {
  /** The forwarding instance (`X-Streams-Forwarded`). */
  readonly from: string;
  /** The instance it is forwarded to (its `application.server`). */
  readonly target: string;
  /** A read of the target's standby copy (`X-Streams-Standby-Read: true`). */
  readonly standby?: boolean;
  readonly method?: string;
  /** Path and query, as sent. */
  readonly url: string;
  /** When it was signed (epoch ms); default now. */
  readonly ts?: number;
}

/**
 * The hop headers of a forwarded request as a member signs them, written from the wire
 * format's description (docs/security.md, not the module's code): a message sealed for
 * `nest-streams.hop:<target>` whose body is the request line (`owner GET /stats/u1`), carried
 * as `X-Streams-Hop-Token: <target> <ts> <nonce> <mac>`. What an attacker who saw one on the
 * wire (or holds the secret) has.
 */
export function signHopAsMember(secret: string, claim: HopClaim): Record<string, string> {
  const ts = claim.ts ?? Date.now();
  const nonce = randomBytes(16).toString('base64url');
  const line = `${claim.standby ? 'standby' : 'owner'} ${claim.method ?? 'GET'} ${claim.url}`;
  const mac = memberMac(secret, [
    `nest-streams.hop:${claim.target}`,
    claim.from,
    String(ts),
    nonce,
    line,
  ]);
  return {
    'x-streams-forwarded': claim.from,
    'x-streams-hop-token': `${claim.target} ${ts} ${nonce} ${mac}`,
    ...(claim.standby ? { 'x-streams-standby-read': 'true' } : {}),
  };
}

/**
 * The hop token of the version before the one scheme (an HMAC over the hop without target,
 * time or nonce), as an instance of that version sends it during a rolling update.
 */
export function previousVersionHop(secret: string, claim: HopClaim): Record<string, string> {
  const key = createHash('sha256').update(secret).digest();
  const line = `${claim.from}\n${claim.standby ? 'standby' : 'owner'}\n${claim.method ?? 'GET'}\n${claim.url}`;
  return {
    'x-streams-forwarded': claim.from,
    'x-streams-hop-token': createHmac('sha256', key).update(line).digest('hex'),
    ...(claim.standby ? { 'x-streams-standby-read': 'true' } : {}),
  };
}

import { Inject, Injectable, type Provider } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import {
  FORWARDED_HEADER,
  HOP_MESSAGE_PATTERN,
  HOP_TOKEN_HEADER,
  STANDBY_READ_HEADER,
} from '../../streams.constants';
import { StreamsModuleSettings } from '../../settings/internals/streams-module.settings';
import { InstanceAuthenticator, type RefusalReason } from './instance.authenticator';

/** A hop this instance can trust: the request was forwarded by an instance of the cluster. */
export interface TrustedHop {
  /** The forwarding instance (`host:port`), from `X-Streams-Forwarded`. */
  readonly from: string;
  /** Forwarded to read a standby copy (`X-Streams-Standby-Read: true`). */
  readonly standby: boolean;
}

/**
 * What the hop headers of a received request amount to: none (a client's request), a
 * trusted hop, or a refused one (why, and whom it claimed to come from). A refused hop gets
 * no hop privilege: the request is routed as any client's.
 */
export type HopCheck =
  | { readonly hop?: undefined; readonly refused?: undefined }
  | { readonly hop: TrustedHop; readonly refused?: undefined }
  | { readonly hop?: undefined; readonly refused: RefusalReason; readonly from?: string };

/** The pattern a hop to `target` (its `application.server`) is sealed for. */
export function hopPattern(target: string): string {
  return `${HOP_MESSAGE_PATTERN}:${target}`;
}

/**
 * The hop headers of forwarded HTTP requests, sealed by the instances' one authentication
 * scheme ({@link InstanceAuthenticator}, as instance-to-instance queries): the token
 * (`X-Streams-Hop-Token: <target> <ts> <nonce> <mac>`) is an HMAC with the cluster secret over
 * the target instance, the forwarding instance (`X-Streams-Forwarded`), a timestamp, a
 * one-time nonce and the request line (owner or standby read, method, path and query). A
 * receiver trusts a hop once, within `security.replayWindowMs`, and only when it is the
 * target: a replayed, late, misdirected, altered or forged token is refused (and the request
 * routed as any client's), before any store is read.
 */
@Injectable()
export class HopAuthenticator {
  constructor(
    @Inject(StreamsModuleSettings) private readonly settings: StreamsModuleSettings,
    @Inject(InstanceAuthenticator) private readonly authenticator: InstanceAuthenticator,
  ) {}

  /**
   * The hop headers of a request this instance (or `from`) forwards to `target` (the
   * `application.server` of the key's owner or standby). A new nonce each call: sign each
   * attempt.
   */
  sign(
    target: string,
    standby: boolean,
    method: string,
    url: string,
    from = this.settings.servedBy,
  ): Record<string, string> {
    const sealed = this.authenticator.sealBody(
      hopPattern(target),
      from,
      requestLine(standby, method, url),
    );
    const headers: Record<string, string> = {
      [FORWARDED_HEADER]: from,
      [HOP_TOKEN_HEADER]: `${target} ${sealed.ts} ${sealed.nonce} ${sealed.mac}`,
    };
    if (standby) headers[STANDBY_READ_HEADER] = 'true';
    return headers;
  }

  /**
   * Checks the hop headers of a request received with `method` and `url` (path and query as
   * received). Each valid token is accepted once: call it once per request.
   */
  verify(headers: IncomingHttpHeaders, method: string, url: string): HopCheck {
    const fromHeader = headers[FORWARDED_HEADER];
    const tokenHeader = headers[HOP_TOKEN_HEADER];
    const standbyHeader = headers[STANDBY_READ_HEADER];
    if (fromHeader === undefined && tokenHeader === undefined && standbyHeader === undefined) {
      return {};
    }
    const from = single(fromHeader);
    const parts = single(tokenHeader)?.split(' ') ?? [];
    if (from === undefined || parts.length !== 4 || !/^\d{1,16}$/.test(parts[1])) {
      return { refused: 'unauthenticated', from };
    }
    const [target, ts, nonce, mac] = parts;
    const standby = single(standbyHeader) === 'true';
    const opened = this.authenticator.openBody(hopPattern(this.settings.servedBy), {
      sealed: 1,
      pattern: hopPattern(target),
      from,
      ts: Number(ts),
      nonce,
      body: requestLine(standby, method, url),
      mac,
    });
    if (!opened.ok) return { refused: opened.reason, from };
    return { hop: { from, standby } };
  }
}

/** The one authenticator of this instance (every channel shares its nonces). */
export const instanceAuthenticatorProvider: Provider = {
  provide: InstanceAuthenticator,
  useFactory: (settings: StreamsModuleSettings) => new InstanceAuthenticator(settings.security),
  inject: [StreamsModuleSettings],
};

/** What a hop token signs of the request: `owner GET /stats/u1?x=1`. */
function requestLine(standby: boolean, method: string, url: string): string {
  return `${standby ? 'standby' : 'owner'} ${method.toUpperCase()} ${url}`;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? (value.length === 1 ? value[0] : undefined) : value;
}

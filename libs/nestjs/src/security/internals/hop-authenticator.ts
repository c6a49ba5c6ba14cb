import { Inject, Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { FORWARDED_HEADER, HOP_TOKEN_HEADER, STANDBY_READ_HEADER } from '../../streams.constants';
import { StreamsModuleSettings } from '../../settings/internals/streams-module.settings';

/** A hop this instance can trust: the request was forwarded by an instance of the cluster. */
export interface TrustedHop {
  /** The forwarding instance (`host:port`), from `X-Streams-Forwarded`. */
  readonly from: string;
  /** Forwarded to read a standby copy (`X-Streams-Standby-Read: true`). */
  readonly standby: boolean;
}

/**
 * Signs the hop headers of forwarded requests and checks those of received ones, with an HMAC
 * keyed by the cluster's shared secret (`security.clusterSecret`) over the forwarding instance, the standby
 * flag, the method and the path. A client that does not hold the key cannot make a request
 * look forwarded (which would turn a forward into a 503, or read a standby copy directly).
 */
@Injectable()
export class HopAuthenticator {
  constructor(@Inject(StreamsModuleSettings) private readonly settings: StreamsModuleSettings) {}

  /** The hop headers of a request this instance forwards. */
  sign(from: string, standby: boolean, method: string, url: string): Record<string, string> {
    const headers: Record<string, string> = {
      [FORWARDED_HEADER]: from,
      [HOP_TOKEN_HEADER]: this.token(from, standby, method, url),
    };
    if (standby) headers[STANDBY_READ_HEADER] = 'true';
    return headers;
  }

  /** The hop of a received request, or undefined when it has none or its token is not valid. */
  verify(headers: IncomingHttpHeaders, method: string, url: string): TrustedHop | undefined {
    const from = single(headers[FORWARDED_HEADER]);
    const token = single(headers[HOP_TOKEN_HEADER]);
    if (from === undefined || token === undefined) return undefined;
    const standby = single(headers[STANDBY_READ_HEADER]) === 'true';
    const expected = Buffer.from(this.token(from, standby, method, url), 'utf8');
    const given = Buffer.from(token, 'utf8');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    return { from, standby };
  }

  private token(from: string, standby: boolean, method: string, url: string): string {
    return createHmac('sha256', this.settings.hopKey)
      .update(`${from}\n${standby ? 'standby' : 'owner'}\n${method.toUpperCase()}\n${url}`)
      .digest('hex');
  }
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? (value.length === 1 ? value[0] : undefined) : value;
}

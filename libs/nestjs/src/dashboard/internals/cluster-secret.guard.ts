import { UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { HttpAdapterHost } from '@nestjs/core';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * Lets through only requests that carry a cluster secret (`Authorization: Bearer <secret>`,
 * any of `security.clusterSecret`): the key look-up's guard on the application's HTTP port
 * when the application gives none of its own. Compared in constant time, through SHA-256.
 * Refused: 401 with `WWW-Authenticate: Bearer`.
 */
export class ClusterSecretGuard implements CanActivate {
  constructor(
    private readonly secretDigests: readonly Buffer[],
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const http = context.switchToHttp();
    const headers = http.getRequest<{ headers: IncomingHttpHeaders }>().headers;
    if (holdsClusterSecret(headers.authorization, this.secretDigests)) return true;
    this.adapterHost.httpAdapter.setHeader(
      http.getResponse(),
      'WWW-Authenticate',
      'Bearer realm="nest-streams cluster page"',
    );
    throw new UnauthorizedException(
      'the key look-up on this port answers only callers that send a cluster secret: Authorization: Bearer <security.clusterSecret>',
    );
  }
}

/** Whether `authorization` is `Bearer <s>` for a secret `s` whose SHA-256 is among `digests`. */
export function holdsClusterSecret(
  authorization: string | undefined,
  digests: readonly Buffer[],
): boolean {
  const match = /^Bearer (\S+)$/i.exec(authorization ?? '');
  if (!match) return false;
  const given = createHash('sha256').update(match[1]).digest();
  // Every digest compared, so the time does not say which secret (if any) matched.
  return digests.reduce((found, digest) => timingSafeEqual(given, digest) || found, false);
}

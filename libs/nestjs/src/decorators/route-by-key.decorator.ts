import type { IncomingHttpHeaders } from 'node:http';
import type { Serde } from '@nest-streams/streams';
import { ROUTE_BY_KEY_METADATA } from '../streams.constants';
import { routeHandler } from './internals/routed-handler';

/** What a key extractor sees of the HTTP request. */
export interface RoutedRequest {
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, unknown>>;
  readonly body: unknown;
  readonly headers: IncomingHttpHeaders;
}

/**
 * Where the key is in the request: a route parameter name (`'userId'`), a path
 * (`'params.userId'`, `'query.user'`, `'body.id'`, `'headers.x-user'`), or a function.
 */
export type KeyFrom<K> = string | ((request: RoutedRequest) => K | undefined);

/** Options of `@RouteByKey`. */
export interface RouteByKeyOptions<K> {
  /**
   * Serde that turns the key into the partition (as the producer of the source topic did);
   * default the store's declared key serde, else `Serdes.String()`.
   */
  readonly keySerde?: Serde<K>;
  /**
   * When the owner is unreachable, answer from a standby copy, marked `X-Stale: true` and
   * `X-Lag`; default the module's `allowStaleReads`.
   */
  readonly allowStaleReads?: boolean;
}

/** `@RouteByKey` as the accessor reads it. */
export interface RouteByKeyMetadata {
  readonly store: string;
  readonly keyFrom: KeyFrom<unknown>;
  readonly options: RouteByKeyOptions<unknown>;
}

/**
 * Routes an HTTP handler by the key it reads: the handler runs here when this instance owns
 * the key's partition of `store`, and otherwise the same request is forwarded to the owner's
 * `application.server` (at most once) and its answer relayed. The handler routes itself (no
 * interceptor: Nest passes it the request and the response besides its own parameters); with
 * `http.global: false` it runs as it is unless you attach
 * `@UseInterceptors(StoreRoutingInterceptor)`. Called directly (a unit test), it runs as it is.
 *
 * @example
 * @Get(':userId')
 * @RouteByKey('stats-store', 'userId')
 * get(@Param('userId') userId: string) { ... }
 *
 * HTTP: a missing or empty key gives 400; no confirmed owner (rebalance) or a retriable engine
 * error gives 503 with `Retry-After`; an unreachable owner gives a standby answer (stale reads
 * allowed) or 503. Clients should retry 503 after `Retry-After`.
 */
export function RouteByKey<K = string>(
  store: string,
  keyFrom: KeyFrom<K>,
  options: RouteByKeyOptions<K> = {},
): MethodDecorator {
  const metadata: RouteByKeyMetadata = {
    store,
    keyFrom: keyFrom as KeyFrom<unknown>,
    options: options as RouteByKeyOptions<unknown>,
  };
  return (target, key, descriptor) => {
    routeHandler(target, key, descriptor, metadata);
    Reflect.defineMetadata(ROUTE_BY_KEY_METADATA, metadata, descriptor.value as object);
    return descriptor;
  };
}

import {
  BadRequestException,
  HttpException,
  Inject,
  Injectable,
  Logger,
  RequestMethod,
  ServiceUnavailableException,
} from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA } from '@nestjs/common/constants';
import { HttpAdapterHost } from '@nestjs/core';
import type { IncomingHttpHeaders } from 'node:http';
import { type HostInfo, SerializationError, StreamsError } from '@nest-streams/streams';
import type {
  KeyFrom,
  RouteByKeyMetadata,
  RoutedRequest,
} from '../decorators/route-by-key.decorator';
import { StreamsMetricsService } from '../metrics/streams-metrics.service';
import { StoreReadContext, type StoreReadOptions } from '../queries/internals/store-read-context';
import { LAG_HEADER, RETRY_AFTER_HEADER, STALE_HEADER } from '../streams.constants';
import { StreamsModuleSettings } from '../settings/internals/streams-module.settings';
import {
  HttpRequestForwarder,
  relayableHeaders,
  type ForwardedResponse,
} from './internals/http-request.forwarder';
import { HopAuthenticator, type HopCheck } from '../security/internals/hop-authenticator';
import { RefusalLog } from '../security/internals/refusal.log';
import { KeyOwnerLocator, type KeyLocation } from '../ownership/internals/key-owner.locator';
import { OwnerUnreachableError } from '../errors/owner-unreachable.error';
import {
  answersHere,
  ownerThenStandby,
  type FallbackOptions,
} from '../ownership/internals/owner-then-standby';
import type { RouteInput } from '../ownership/internals/route-decision';

/** The parts of an Express/Fastify-style request the router reads. */
export interface HttpRequestLike {
  readonly method: string;
  readonly url: string;
  readonly originalUrl?: string;
  readonly headers: IncomingHttpHeaders;
  readonly params?: Record<string, string>;
  readonly query?: Record<string, unknown>;
  readonly body?: unknown;
  /** The connection (Express and Fastify requests both have it). */
  readonly socket?: { readonly remoteAddress?: string };
}

/**
 * The platform's response (Express `Response`, Fastify `FastifyReply`, ...): written only
 * through the `HttpAdapterHost`'s adapter, so any Nest HTTP platform works.
 */
export type HttpResponse = unknown;

/**
 * Runs the handler with the store reads it makes: active copies only, or standby copies too
 * (`staleStores`), marking the answer as soon as a standby copy answers one of them.
 */
export type RunHandler<R> = (read: StoreReadOptions) => R;

/**
 * What a target answered, wrapped: a handler's rejection is its answer, not a routing failure.
 */
interface Answered<R> {
  readonly value: R | unknown;
}

/**
 * Where a `@RouteByKey` request is answered, for both ways of attaching it to a handler (the
 * handler wrapper `@RouteByKey` installs, and `StoreRoutingInterceptor`):
 *
 * - owner is this instance: runs the handler;
 * - owner is another instance of the current metadata: forwards the same request (method,
 *   path, query, body) to its `application.server` once (hop header `X-Streams-Forwarded`,
 *   authenticated by `X-Streams-Hop-Token`: the instances' one scheme, an HMAC keyed with the
 *   cluster secret over the target, method, path, a timestamp and a one-time nonce), and
 *   relays its answer;
 * - no confirmed owner (`KeyQueryMetadata.NOT_AVAILABLE`), a retriable engine error, or a
 *   forwarded request that reached an instance that does not own the key: 503 with
 *   `Retry-After`;
 * - owner unreachable (or answering 503): with stale reads allowed (route or module) a standby
 *   copy answers, marked `X-Stale: true` and `X-Lag: <records>`; otherwise 503.
 *
 * Forwarding targets come only from the cluster metadata; nothing in the request (Host,
 * hop header) can send a request elsewhere. Hop headers without a valid token (forged by a
 * client, replayed, expired, sealed for another instance, or from an older version) are
 * refused before any store is read, counted (`hop_refusals_total{reason}`) and logged
 * (rate-limited): the request gets no hop privilege and is routed as any other. A missing key
 * gives 400.
 */
@Injectable()
export class StoreRouter {
  private readonly refusals = new RefusalLog(
    (line) => new Logger('StoreRoutingInterceptor').warn(line),
    {
      subject: 'the hop token of a forwarded request',
      meanings: {
        unauthenticated:
          'hop headers without a token of this version: a client forging them, or an instance of an older version during a rolling update (the request is routed as a client request)',
      },
    },
  );

  constructor(
    @Inject(KeyOwnerLocator) private readonly locator: KeyOwnerLocator,
    @Inject(HttpRequestForwarder) private readonly forwarder: HttpRequestForwarder,
    @Inject(StreamsModuleSettings) private readonly settings: StreamsModuleSettings,
    @Inject(StreamsMetricsService) private readonly metrics: StreamsMetricsService,
    @Inject(HopAuthenticator) private readonly hops: HopAuthenticator,
    @Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost,
  ) {}

  /**
   * Answers `request` for `route`: `run`'s result at once when this instance holds the key's
   * active copy (no promise on the way); otherwise a promise of `run`'s result (a standby copy
   * here) or of the owner's relayed body. `handler` is the route's handler (its status code).
   *
   * @throws BadRequestException when the request has no key, or one the store's key serde
   *   cannot serialize; ServiceUnavailableException (503, `Retry-After`) when no instance can
   *   answer now; HttpException with the owner's status when the owner answered otherwise.
   */
  answer<R>(
    route: RouteByKeyMetadata,
    request: HttpRequestLike,
    response: HttpResponse,
    handler: object,
    run: RunHandler<R>,
  ): R | Promise<R | unknown> {
    const key = extractKey(route.keyFrom, request);
    const allowStale = route.options.allowStaleReads ?? this.settings.allowStaleReads;
    const { hop } = this.checkHop(request);
    const forwardedFrom = hop?.from;
    const standbyRead = hop?.standby === true;

    let location: KeyLocation;
    try {
      location = this.locator.locate(route.store, key, route.options.keySerde);
    } catch (error) {
      if (error instanceof StreamsError && error.retriable) {
        throw this.unavailable(response, error.message);
      }
      if (error instanceof SerializationError) {
        throw new BadRequestException(
          `the key does not fit store '${route.store}': ${error.message}`,
        );
      }
      throw error;
    }
    const input: RouteInput = { ...location, forwardedFrom };
    const fallback = { allowStale, standbyRead };
    if (answersHere(input, fallback)) {
      this.metrics.recordRouting('local');
      return run(this.readOptions(response, false));
    }
    return this.routeAway(input, fallback, request, response, handler, run);
  }

  /**
   * {@link answer} for a handler that routes itself (`@RouteByKey`'s wrapper): `invoke` runs the
   * handler in a store read record of its own.
   */
  answerHandler(
    route: RouteByKeyMetadata,
    request: HttpRequestLike,
    response: HttpResponse,
    handler: object,
    invoke: () => unknown,
  ): unknown {
    return this.answer(route, request, response, handler, (read) =>
      StoreReadContext.run(read, invoke),
    );
  }

  /**
   * How a request run here reads: standby copies too when `staleStores`, and the answer marked
   * `X-Stale: true` and `X-Lag: <records>` as soon as a standby copy answers any of its reads —
   * whatever was decided before, the marks say what served.
   */
  readOptions(response: HttpResponse, staleStores: boolean): StoreReadOptions {
    return {
      staleStores,
      onStale: (lag: number): void => {
        this.setHeader(response, STALE_HEADER, 'true');
        this.setHeader(response, LAG_HEADER, String(lag));
      },
    };
  }

  /** {@link answer} for a key this instance cannot answer from its active copy. */
  private async routeAway<R>(
    input: RouteInput,
    fallback: FallbackOptions,
    request: HttpRequestLike,
    response: HttpResponse,
    handler: object,
    run: RunHandler<R>,
  ): Promise<R | unknown> {
    const { allowStale } = fallback;
    let answered: Answered<R>;
    try {
      answered = await ownerThenStandby<Answered<R>>(input, fallback, async (target) => {
        if (target.local) {
          this.metrics.recordRouting(target.standby ? 'standby' : 'local');
          // Fresh changelog ends, so the lag each standby copy reports with its answer is current;
          // without them it cannot say how far behind it is: 503, never a lag it cannot vouch for.
          if (target.standby) await this.locator.requireFreshLags();
          // Wrapped: what the handler throws or rejects with is its answer, not a routing failure
          // (to answer 503 for, or to try a standby copy for).
          try {
            return { value: run(this.readOptions(response, target.standby)) };
          } catch (error) {
            return { value: Promise.reject(error as Error) };
          }
        }
        let answer: ForwardedResponse;
        try {
          answer = await this.forward(request, target.host, target.standby);
        } catch (error) {
          if (error instanceof OwnerUnreachableError) return { unreachable: error };
          throw error;
        }
        // An owner answering 503 cannot answer either: a standby may, when allowed.
        if (answer.status === 503 && allowStale && !target.standby) {
          return {
            unreachable: new OwnerUnreachableError(target.host.toString(), 'it answered 503'),
          };
        }
        this.metrics.recordRouting(target.standby ? 'standby' : 'forwarded');
        return { value: this.relay(answer, response, handler) };
      });
    } catch (error) {
      if (error instanceof StreamsError && error.retriable) {
        throw this.unavailable(response, error.message);
      }
      throw error;
    }
    return answered.value;
  }

  /** The request's hop, trusted or refused; a refusal is counted and logged (rate-limited). */
  private checkHop(request: HttpRequestLike): HopCheck {
    const check = this.hops.verify(request.headers, request.method, urlOf(request));
    if (check.refused !== undefined) {
      this.metrics.recordHopRefusal(check.refused);
      this.refusals.refused(check.refused, request.socket?.remoteAddress, check.from);
    }
    return check;
  }

  private forward(
    request: HttpRequestLike,
    target: HostInfo,
    standby: boolean,
  ): Promise<ForwardedResponse> {
    const url = urlOf(request);
    return this.forwarder.forward(
      { method: request.method, url, headers: request.headers, body: request.body },
      target,
      () => this.hops.sign(target.toString(), standby, request.method, url),
      this.settings.forwardingTimeoutMs,
    );
  }

  /** Sends the other instance's answer as ours: its status, headers and body. */
  private relay(answer: ForwardedResponse, response: HttpResponse, handler: object): unknown {
    for (const [name, value] of relayableHeaders(answer.headers)) {
      this.setHeader(response, name, value);
    }
    const body = parseBody(answer);
    if (answer.status === defaultStatusOf(handler)) return body;
    // Nest writes the route's own status for returned values; an exception carries another.
    throw new HttpException(body ?? '', answer.status);
  }

  /** Sets a header through the platform's adapter (a list for a header sent several times). */
  setHeader(response: HttpResponse, name: string, value: string | string[]): void {
    // The adapters take a string; Express' `set` and Fastify's `header` also take a list.
    this.adapterHost.httpAdapter.setHeader(response, name, value as string);
  }

  private unavailable(response: HttpResponse, reason: string): HttpException {
    this.metrics.recordRouting('unavailable');
    this.setHeader(response, RETRY_AFTER_HEADER, String(this.settings.retryAfterSeconds));
    return new ServiceUnavailableException({
      statusCode: 503,
      error: 'Service Unavailable',
      code: 'KEY_OWNER_NOT_AVAILABLE',
      retriable: true,
      message: `${reason}; retry after ${this.settings.retryAfterSeconds} s`,
    });
  }
}

/**
 * The key of a request.
 *
 * @throws BadRequestException when the request has no such key (or an empty one).
 */
export function extractKey(keyFrom: KeyFrom<unknown>, request: HttpRequestLike): unknown {
  // A path parameter (the usual declaration): read without building the routed request.
  if (typeof keyFrom === 'string' && !keyFrom.includes('.')) {
    return presentKey(request.params?.[keyFrom], keyFrom);
  }
  const routed: RoutedRequest = {
    params: request.params ?? {},
    query: request.query ?? {},
    body: request.body,
    headers: request.headers,
  };
  let key: unknown;
  if (typeof keyFrom === 'function') {
    key = keyFrom(routed);
  } else {
    const path = keyFrom.includes('.') ? keyFrom.split('.') : ['params', keyFrom];
    key = path.reduce<unknown>(
      (value, part) =>
        value !== null && typeof value === 'object'
          ? (value as Record<string, unknown>)[part]
          : undefined,
      routed,
    );
  }
  return presentKey(key, keyFrom);
}

/** `key`, unless it is missing or empty (then BadRequestException naming where it was expected). */
function presentKey(key: unknown, keyFrom: KeyFrom<unknown>): unknown {
  if (key === undefined || key === null || key === '') {
    const where = typeof keyFrom === 'function' ? 'the request' : `'${keyFrom}'`;
    throw new BadRequestException(`the request has no key (expected in ${where})`);
  }
  return key;
}

/** Path and query as received (what a forwarded request carries, and what its token signs). */
function urlOf(request: HttpRequestLike): string {
  return request.originalUrl ?? request.url;
}

function headerOf(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function parseBody(answer: ForwardedResponse): unknown {
  if (answer.body.length === 0) return undefined;
  const type = headerOf(answer.headers, 'content-type') ?? '';
  const text = answer.body.toString('utf8');
  if (type.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/** The status Nest writes for what `handler` returns: its `@HttpCode`, else 201 for POST, 200. */
function defaultStatusOf(handler: object): number {
  const code = Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined;
  if (code !== undefined) return code;
  const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
  return method === RequestMethod.POST ? 201 : 200;
}

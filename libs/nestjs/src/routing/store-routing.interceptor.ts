import {
  Inject,
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { from, isObservable, mergeMap, Observable, of } from 'rxjs';
import type { RouteByKeyMetadata } from '../decorators/route-by-key.decorator';
import { StreamsMetadataAccessor } from '../discovery/internals/streams-metadata.accessor';
import { StoreReadContext, type StoreReadOptions } from '../queries/internals/store-read-context';
import { SERVED_BY_HEADER } from '../streams.constants';
import { StreamsModuleSettings } from '../settings/internals/streams-module.settings';
import { markRoutedByInterceptor } from '../decorators/internals/routed-handler';
import { StoreRouter, type HttpRequestLike, type HttpResponse } from './store-router';

/**
 * `@RouteByKey` routing as a Nest interceptor, for applications that attach it themselves
 * (`http.global: false` and `@UseInterceptors(StoreRoutingInterceptor)`). By default the module
 * needs no interceptor: `@RouteByKey` routes its handler itself, which costs a request far less
 * than an interceptor does. Both route the same way (`StoreRouter`); a request this
 * interceptor routes is not routed again by the handler.
 *
 * Handlers without `@RouteByKey` run as they are, their store reads recorded (an answer a
 * standby copy served is marked `X-Stale: true` and `X-Lag`); with `http.servedByHeader`,
 * `X-Served-By` is set on the answer.
 */
@Injectable()
export class StoreRoutingInterceptor implements NestInterceptor {
  /** Each handler's `@RouteByKey` declaration (`null`: none), read on its first request. */
  private readonly routes = new Map<object, RouteByKeyMetadata | null>();

  constructor(
    @Inject(StreamsMetadataAccessor) private readonly accessor: StreamsMetadataAccessor,
    @Inject(StoreRouter) private readonly router: StoreRouter,
    @Inject(StreamsModuleSettings) private readonly settings: StreamsModuleSettings,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const http = context.switchToHttp();
    const request = http.getRequest<HttpRequestLike>();
    const response = http.getResponse<HttpResponse>();
    if (this.settings.http.servedByHeader) {
      this.router.setHeader(response, SERVED_BY_HEADER, this.settings.servedBy);
    }
    const run = (read: StoreReadOptions): Observable<unknown> =>
      new Observable((subscriber) =>
        StoreReadContext.run(read, () => next.handle().subscribe(subscriber)),
      );
    const handler = context.getHandler();
    const route = this.routeOf(handler);
    if (!route) return run(this.router.readOptions(response, false));
    markRoutedByInterceptor(request);
    const answer = this.router.answer(route, request, response, handler, run);
    if (isObservable(answer)) return answer;
    return from(answer).pipe(mergeMap((result) => (isObservable(result) ? result : of(result))));
  }

  /** The handler's `@RouteByKey` declaration, read once per handler. */
  private routeOf(handler: ReturnType<ExecutionContext['getHandler']>): RouteByKeyMetadata | null {
    let route = this.routes.get(handler);
    if (route === undefined) {
      route = this.accessor.getRouteByKey(handler) ?? null;
      this.routes.set(handler, route);
    }
    return route;
  }
}

import 'reflect-metadata';
import { Get, HttpCode, Param, Req, UseGuards } from '@nestjs/common';
import {
  GUARDS_METADATA,
  HTTP_CODE_METADATA,
  PATH_METADATA,
  ROUTE_ARGS_METADATA,
} from '@nestjs/common/constants';
import { RouteByKey } from '../route-by-key.decorator';
import { ROUTE_BY_KEY_METADATA } from '../../streams.constants';
import { bindRoutedHandlers, markRoutedByInterceptor, type HandlerRouter } from './routed-handler';

class AllowAll {
  canActivate(): boolean {
    return true;
  }
}

class Stats {
  @Get(':userId')
  @RouteByKey('stats-store', 'userId')
  @HttpCode(203)
  @UseGuards(AllowAll)
  get(@Param('userId') userId: string): string {
    return `here:${userId}`;
  }

  @RouteByKey('stats-store', 'query.user')
  own(@Req() request: { url: string }, @Param('userId') userId: string): string {
    return `${request.url}:${userId}`;
  }
}

/** The parameters Nest passes `method`: `type:index` keys, by index. */
const params = (method: string): string[] =>
  Object.keys(
    (Reflect.getMetadata(ROUTE_ARGS_METADATA, Stats, method) ?? {}) as Record<string, unknown>,
  ).sort((a, b) => Number(a.split(':')[1]) - Number(b.split(':')[1]));

/** `stats.get` as Nest calls it: its own parameter, then the request and the response. */
const get = (stats: Stats, userId: string, request?: object, response?: object): unknown =>
  (stats.get as (...args: unknown[]) => unknown).call(stats, userId, request, response);

describe('@RouteByKey: a handler that routes itself', () => {
  it('keeps every metadata of the handler, before and after it in the decorators', () => {
    const handler = Stats.prototype.get;
    expect(handler.name).toBe('get');
    expect(Reflect.getMetadata(PATH_METADATA, handler)).toBe(':userId');
    expect(Reflect.getMetadata(HTTP_CODE_METADATA, handler)).toBe(203);
    expect(Reflect.getMetadata(GUARDS_METADATA, handler)).toEqual([AllowAll]);
    expect(Reflect.getMetadata(ROUTE_BY_KEY_METADATA, handler)).toMatchObject({
      store: 'stats-store',
      keyFrom: 'userId',
    });
  });

  it("asks Nest for the request and the response after the handler's own parameters, or reuses its own", () => {
    expect(params('get')).toEqual(['5:0', '0:1', '1:2']);
    expect(Reflect.getMetadata('__responsePassthrough__', Stats, 'get')).toBe(true);
    expect(params('own')).toEqual(['0:0', '5:1', '1:2']);
  });

  it('runs as it is when called directly, with nothing bound, or when the interceptor routed the request', () => {
    const stats = new Stats();
    expect(stats.get('u1')).toBe('here:u1');
    expect(get(stats, 'u1', { url: '/stats/u1' }, {})).toBe('here:u1');

    const router: HandlerRouter<unknown> = { answerHandler: jest.fn(() => 'routed') };
    bindRoutedHandlers(stats, router);
    const request = { url: '/stats/u2' };
    markRoutedByInterceptor(request);
    expect(get(stats, 'u2', request, {})).toBe('here:u2');
    expect(router.answerHandler).not.toHaveBeenCalled();
  });

  it('asks the router bound to its controller, which runs it here or answers for it', () => {
    const stats = new Stats();
    const response = {};
    const answerHandler = jest.fn(
      (
        _route: unknown,
        request: { url: string },
        _response: unknown,
        _handler: object,
        invoke: () => unknown,
      ) => (request.url === '/here' ? invoke() : 'from the owner'),
    );
    bindRoutedHandlers(stats, { answerHandler } as HandlerRouter<unknown>);

    expect(get(stats, 'u1', { url: '/here' }, response)).toBe('here:u1');
    expect(get(stats, 'u1', { url: '/away' }, response)).toBe('from the owner');
    expect(answerHandler.mock.calls[0][0]).toMatchObject({
      store: 'stats-store',
      keyFrom: 'userId',
    });
    expect(answerHandler.mock.calls[0][2]).toBe(response);
    expect(answerHandler.mock.calls[0][3]).toBe(Stats.prototype.get);

    // A request-scoped controller: bound by its prototype.
    const perRequest = new (class extends Stats {})();
    bindRoutedHandlers(
      Object.getPrototypeOf(perRequest) as object,
      {
        answerHandler: () => 'per request',
      } as HandlerRouter<unknown>,
    );
    expect(get(perRequest, 'u1', { url: '/x' }, response)).toBe('per request');
  });
});

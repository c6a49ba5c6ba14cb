import { Inject, Injectable, Optional, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { StoreReadContext } from './store-read-context';
import { StreamsModuleSettings } from '../../settings/internals/streams-module.settings';
import { LAG_HEADER, STALE_HEADER } from '../../streams.constants';

/**
 * With `http.global` (the default), gives every HTTP request a store read record as it arrives,
 * before the framework sees it: any handler's reads of standby copies (through
 * `InteractiveQueryService` or a store facade) mark its answer `X-Stale: true` and
 * `X-Lag: <records>` the moment one answers, with no interceptor on the way. A `@RouteByKey`
 * handler runs in a record of its own. It listens on the Node HTTP server itself (Express or
 * Fastify alike); without an HTTP server it does nothing.
 */
@Injectable()
export class RequestReadContextListener implements OnModuleInit {
  constructor(
    @Inject(StreamsModuleSettings) private readonly settings: StreamsModuleSettings,
    @Optional() @Inject(HttpAdapterHost) private readonly adapterHost?: HttpAdapterHost,
  ) {}

  onModuleInit(): void {
    if (!this.settings.http.global) return;
    const server = this.adapterHost?.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server || typeof server.prependListener !== 'function') return;
    server.prependListener('request', (_request: IncomingMessage, response: ServerResponse) => {
      StoreReadContext.enter({
        staleStores: false,
        onStale: (lag) => {
          if (response.headersSent) return;
          response.setHeader(STALE_HEADER, 'true');
          response.setHeader(LAG_HEADER, String(lag));
        },
      });
    });
  }
}

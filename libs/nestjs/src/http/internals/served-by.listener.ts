import { Inject, Injectable, Optional, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { SERVED_BY_HEADER } from '../../streams.constants';
import { StreamsModuleSettings } from '../../settings/internals/streams-module.settings';

/**
 * With `http.servedByHeader: true`, sets `X-Served-By: <this instance>` on every HTTP answer, before the framework sees the
 * request: also on answers no route handles (404 for an unknown path or method, 400 for a
 * path that does not decode), which never reach the routing interceptor. It listens on the
 * Node HTTP server itself (Express or Fastify alike); without an HTTP server it does nothing.
 */
@Injectable()
export class ServedByListener implements OnApplicationBootstrap {
  constructor(
    @Inject(StreamsModuleSettings) private readonly settings: StreamsModuleSettings,
    @Optional() @Inject(HttpAdapterHost) private readonly adapterHost?: HttpAdapterHost,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.settings.http.servedByHeader) return;
    const server = this.adapterHost?.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server || typeof server.prependListener !== 'function') return;
    const servedBy = this.settings.servedBy;
    server.prependListener('request', (_request: IncomingMessage, response: ServerResponse) => {
      if (!response.headersSent) response.setHeader(SERVED_BY_HEADER, servedBy);
    });
  }
}

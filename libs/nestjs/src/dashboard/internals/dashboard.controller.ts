import { Controller, Inject, Query, Res, type Type } from '@nestjs/common';
import { GUARDS_METADATA } from '@nestjs/common/constants';
import { HttpAdapterHost } from '@nestjs/core';
import { routeGetHandlers } from '../../decorators/run-time-routes';
import { StreamsModuleSettings } from '../../settings/internals/streams-module.settings';
import type { ClusterView } from './cluster-view.builder';
import { ClusterSecretGuard } from './cluster-secret.guard';
import { DASHBOARD_HEADERS, DashboardApi } from './dashboard.api';
import type { KeyInspection } from './key-inspector';
import type { TopologyView } from './topology-view';

/** The routes of the page, relative to `dashboard.path`, by handler. */
const ROUTES = {
  page: '/',
  topology: '/api/topology',
  cluster: '/api/cluster',
  lookup: '/api/lookup',
} as const;

/**
 * The cluster page (`GET /<dashboard.path>`) and its data (`GET /<dashboard.path>/api/...`:
 * `topology`, `cluster`, `lookup?store=&key=`) on the application's HTTP server, one class per
 * module definition. Its routes exist only with `dashboard` on and no `management.port` (then
 * the management server serves them instead): the constructor, run when Nest creates the
 * application (after `forRootAsync` options are resolved, before routes are registered), puts
 * the path on the class and a `GET` on each handler, and the look-up's guard on its handler
 * (the application's `dashboard.lookup.guard`, else {@link ClusterSecretGuard}). Answers go
 * through Nest's HTTP adapter, so the page works on Express and on Fastify.
 */
export function createDashboardController(): Type<unknown> {
  @Controller()
  class StreamsDashboardController {
    constructor(
      @Inject(StreamsModuleSettings) settings: StreamsModuleSettings,
      @Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost,
      @Inject(DashboardApi) private readonly api: DashboardApi,
    ) {
      const { dashboard, management, security } = settings;
      if (!dashboard.enabled || management.port !== undefined) return;
      routeGetHandlers(StreamsDashboardController, dashboard.path, ROUTES);
      if (dashboard.lookup) {
        const guard =
          dashboard.lookupGuard ?? new ClusterSecretGuard(security.secretDigests, adapterHost);
        Reflect.defineMetadata(
          GUARDS_METADATA,
          [guard],
          StreamsDashboardController.prototype.lookup,
        );
      }
    }

    page(@Res({ passthrough: true }) response: unknown): string {
      const document = this.api.page();
      this.headers(response, 'text/html; charset=utf-8');
      this.header(response, 'Content-Security-Policy', document.contentSecurityPolicy);
      return document.html;
    }

    topology(@Res({ passthrough: true }) response: unknown): TopologyView {
      this.headers(response, 'application/json; charset=utf-8');
      return this.api.topology();
    }

    cluster(@Res({ passthrough: true }) response: unknown): Promise<ClusterView> {
      this.headers(response, 'application/json; charset=utf-8');
      return this.api.cluster();
    }

    async lookup(
      @Query('store') store: unknown,
      @Query('key') key: unknown,
      @Res({ passthrough: true }) response: unknown,
    ): Promise<KeyInspection> {
      const inspection = await this.api.lookup(store, key);
      this.headers(response, 'application/json; charset=utf-8');
      return inspection;
    }

    private headers(response: unknown, contentType: string): void {
      this.header(response, 'Content-Type', contentType);
      for (const [name, value] of Object.entries(DASHBOARD_HEADERS)) {
        this.header(response, name, value);
      }
    }

    private header(response: unknown, name: string, value: string): void {
      this.adapterHost.httpAdapter.setHeader(response, name, value);
    }
  }
  return StreamsDashboardController;
}

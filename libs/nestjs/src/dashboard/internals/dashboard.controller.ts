import {
  BadRequestException,
  Controller,
  Inject,
  NotFoundException,
  Query,
  RequestMethod,
  Res,
  type Type,
} from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { HttpAdapterHost } from '@nestjs/core';
import { SerializationError, UnknownStateStoreError } from '@nest-streams/streams';
import { KafkaStreamsHost } from '../../client/internals/kafka-streams.host';
import { StreamsModuleSettings } from '../../settings/internals/streams-module.settings';
import { ClusterViewBuilder, type ClusterView } from './cluster-view.builder';
import { buildDashboardDocument, type DashboardDocument } from './dashboard-page';
import { KeyInspector, type KeyInspection } from './key-inspector';
import { topologyView, type TopologyView } from './topology-view';

/** The routes of the page, relative to `dashboard.path`, by handler. */
const ROUTES = {
  page: '/',
  topology: '/api/topology',
  cluster: '/api/cluster',
  lookup: '/api/lookup',
} as const;

/** Longest key the look-up takes (as the example application's routes). */
const MAX_KEY_LENGTH = 1024;

/**
 * The cluster page (`GET /<dashboard.path>`) and its data (`GET /<dashboard.path>/api/...`:
 * `topology`, `cluster`, `lookup?store=&key=`), one class per module definition. Its routes
 * exist only with `dashboard` on: the constructor, run when Nest creates the application
 * (after `forRootAsync` options are resolved, before routes are registered), puts the path on
 * the class and a `GET` on each handler. Answers go through Nest's HTTP adapter, so the page
 * works on Express and on Fastify.
 */
export function createDashboardController(): Type<unknown> {
  @Controller()
  class StreamsDashboardController {
    private document: DashboardDocument | undefined;
    private topologyAnswer: TopologyView | undefined;

    constructor(
      @Inject(StreamsModuleSettings) settings: StreamsModuleSettings,
      @Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost,
      @Inject(KafkaStreamsHost) private readonly host: KafkaStreamsHost,
      @Inject(ClusterViewBuilder) private readonly clusterView: ClusterViewBuilder,
      @Inject(KeyInspector) private readonly inspector: KeyInspector,
    ) {
      if (!settings.dashboard.enabled) return;
      Reflect.defineMetadata(PATH_METADATA, settings.dashboard.path, StreamsDashboardController);
      for (const [name, path] of Object.entries(ROUTES)) {
        const handler = Object.getOwnPropertyDescriptor(StreamsDashboardController.prototype, name)
          ?.value as object;
        Reflect.defineMetadata(PATH_METADATA, path, handler);
        Reflect.defineMetadata(METHOD_METADATA, RequestMethod.GET, handler);
      }
    }

    page(@Res({ passthrough: true }) response: unknown): string {
      this.document ??= buildDashboardDocument();
      this.headers(response, 'text/html; charset=utf-8');
      this.header(response, 'Content-Security-Policy', this.document.contentSecurityPolicy);
      return this.document.html;
    }

    topology(@Res({ passthrough: true }) response: unknown): TopologyView {
      this.headers(response, 'application/json; charset=utf-8');
      this.topologyAnswer ??= topologyView(this.host.streams);
      return this.topologyAnswer;
    }

    cluster(@Res({ passthrough: true }) response: unknown): Promise<ClusterView> {
      this.headers(response, 'application/json; charset=utf-8');
      return this.clusterView.view();
    }

    async lookup(
      @Query('store') store: unknown,
      @Query('key') key: unknown,
      @Res({ passthrough: true }) response: unknown,
    ): Promise<KeyInspection> {
      if (typeof store !== 'string' || store === '' || typeof key !== 'string' || key === '') {
        throw new BadRequestException('give one store and one key: ?store=<name>&key=<key>');
      }
      if (key.length > MAX_KEY_LENGTH) {
        throw new BadRequestException(`keys are at most ${MAX_KEY_LENGTH} characters`);
      }
      this.headers(response, 'application/json; charset=utf-8');
      try {
        return await this.inspector.inspect(store, key);
      } catch (error) {
        if (error instanceof UnknownStateStoreError) throw new NotFoundException(error.message);
        if (error instanceof SerializationError) throw new BadRequestException(error.message);
        throw error;
      }
    }

    private headers(response: unknown, contentType: string): void {
      this.header(response, 'Content-Type', contentType);
      this.header(response, 'Cache-Control', 'no-store');
      this.header(response, 'X-Content-Type-Options', 'nosniff');
    }

    private header(response: unknown, name: string, value: string): void {
      this.adapterHost.httpAdapter.setHeader(response, name, value);
    }
  }
  return StreamsDashboardController;
}

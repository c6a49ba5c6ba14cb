import {
  HttpException,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { StreamsError } from '@nest-streams/streams';
import { KafkaStreamsHost } from '../../client/internals/kafka-streams.host';
import { DASHBOARD_HEADERS, DashboardApi } from '../../dashboard/internals/dashboard.api';
import { StreamsMetricsService } from '../../metrics/streams-metrics.service';
import { StreamsModuleSettings } from '../../settings/internals/streams-module.settings';
import { SERVED_BY_HEADER } from '../../streams.constants';
import { clusterLayout } from './cluster-layout';

/** One answer of the management server. */
interface Answer {
  readonly status: number;
  readonly type: string;
  readonly body: string;
  readonly headers?: Readonly<Record<string, string>>;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The management server (`management.port`): the operator surfaces on a port of their own,
 * and on no other: `GET /<metrics.endpoint>` (Prometheus), the cluster page at
 * `GET /<dashboard.path>` with its data under `/<dashboard.path>/api/` (the key look-up only
 * with `dashboard.lookup`), and the cluster's layout at `GET /<management.metadataEndpoint>`.
 * Plain HTTP on `management.host`, answers as the application's routes give them (errors as
 * Nest's JSON), `X-Served-By` with `http.servedByHeader`. Nest's guards and interceptors do not
 * run here: keep the port inside the cluster (a network policy), or reach it with a port
 * forward. It listens on application bootstrap and does not keep the process alive.
 *
 * Errors: bootstrap (`app.init()`) rejects when the port cannot be listened on (in use:
 * choose another `management.port`).
 */
@Injectable()
export class ManagementServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ManagementServer');
  private server: Server | undefined;

  constructor(
    @Inject(StreamsModuleSettings) private readonly settings: StreamsModuleSettings,
    @Inject(StreamsMetricsService) private readonly metrics: StreamsMetricsService,
    @Inject(DashboardApi) private readonly dashboard: DashboardApi,
    @Inject(KafkaStreamsHost) private readonly host: KafkaStreamsHost,
  ) {}

  /** The address it listens on (`host:port`), once listening. */
  get address(): string | undefined {
    const address = this.server?.address();
    return address && typeof address === 'object'
      ? `${address.address}:${address.port}`
      : undefined;
  }

  async onApplicationBootstrap(): Promise<void> {
    const { port, host } = this.settings.management;
    if (port === undefined || this.server) return;
    const server = createServer((request, response) => void this.serve(request, response));
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error) =>
        reject(
          new Error(
            `the management server cannot listen on ${host}:${port} (${error.message}): choose another management.port`,
            { cause: error },
          ),
        ),
      );
      server.listen(port, host, () => resolve());
    });
    server.unref();
    this.server = server;
    this.logger.log(`serving ${this.surfaces().join(', ') || 'nothing'} on ${host}:${port}`);
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The paths served, for the start-up line. */
  private surfaces(): string[] {
    const { metrics, dashboard, management } = this.settings;
    return [
      metrics.endpoint && `/${metrics.endpoint}`,
      dashboard.enabled && `/${dashboard.path}${dashboard.lookup ? ' (with the key look-up)' : ''}`,
      management.metadataEndpoint && `/${management.metadataEndpoint}`,
    ].filter((s): s is string => typeof s === 'string');
  }

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let answer: Answer;
    try {
      answer = await this.answer(request);
    } catch (error) {
      answer = failure(error);
      if (answer.status >= 500) this.logger.error(`${request.url} failed`, error as Error);
    }
    const headers: Record<string, string> = {
      'Content-Type': answer.type,
      'Content-Length': String(Buffer.byteLength(answer.body)),
      ...answer.headers,
    };
    if (this.settings.http.servedByHeader) headers[SERVED_BY_HEADER] = this.settings.servedBy;
    response.writeHead(answer.status, headers);
    response.end(request.method === 'HEAD' ? undefined : answer.body);
  }

  private async answer(request: IncomingMessage): Promise<Answer> {
    const url = new URL(request.url ?? '/', 'http://management');
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return {
        ...error(405, 'Method Not Allowed', `${request.method} is not served here`),
        headers: { Allow: 'GET, HEAD' },
      };
    }
    const path = url.pathname.replace(/\/+$/, '');
    const { metrics, dashboard, management } = this.settings;
    if (metrics.endpoint !== undefined && path === `/${metrics.endpoint}`) {
      return {
        status: 200,
        type: this.metrics.registry.contentType,
        body: await this.metrics.metrics(),
      };
    }
    if (management.metadataEndpoint !== undefined && path === `/${management.metadataEndpoint}`) {
      return json(await clusterLayout(this.host.streams));
    }
    if (dashboard.enabled) {
      const page = `/${dashboard.path}`;
      if (path === page) {
        const document = this.dashboard.page();
        return {
          status: 200,
          type: 'text/html; charset=utf-8',
          body: document.html,
          headers: {
            ...DASHBOARD_HEADERS,
            'Content-Security-Policy': document.contentSecurityPolicy,
          },
        };
      }
      if (path === `${page}/api/topology`)
        return json(this.dashboard.topology(), DASHBOARD_HEADERS);
      if (path === `${page}/api/cluster`)
        return json(await this.dashboard.cluster(), DASHBOARD_HEADERS);
      if (path === `${page}/api/lookup`) {
        const one = (name: string) => {
          const values = url.searchParams.getAll(name);
          return values.length > 1 ? values : values[0];
        };
        return json(await this.dashboard.lookup(one('store'), one('key')), DASHBOARD_HEADERS);
      }
    }
    return error(404, 'Not Found', `Cannot ${request.method} ${url.pathname}`);
  }
}

function json(value: unknown, headers?: Readonly<Record<string, string>>): Answer {
  return { status: 200, type: JSON_TYPE, body: JSON.stringify(value), headers };
}

/** An error answer shaped as Nest's: `{ statusCode, message, error }`. */
function error(status: number, reason: string, message: string): Answer {
  return {
    status,
    type: JSON_TYPE,
    body: JSON.stringify({ message, error: reason, statusCode: status }),
  };
}

/** The answer to what a surface threw: its HTTP status and body, 503 when retriable, else 500. */
function failure(thrown: unknown): Answer {
  if (thrown instanceof StreamsError && thrown.retriable) {
    return {
      ...error(503, 'Service Unavailable', thrown.message),
      headers: { 'Retry-After': '2' },
    };
  }
  if (thrown instanceof HttpException) {
    const body = thrown.getResponse();
    return {
      status: thrown.getStatus(),
      type: JSON_TYPE,
      body: JSON.stringify(
        typeof body === 'string' ? { statusCode: thrown.getStatus(), message: body } : body,
      ),
    };
  }
  return error(
    500,
    'Internal Server Error',
    thrown instanceof Error ? thrown.message : String(thrown),
  );
}

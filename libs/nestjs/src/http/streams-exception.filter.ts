import { Catch, Inject, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { throwError, type Observable } from 'rxjs';
import { StreamsError } from '@nest-streams/streams';
import { RETRY_AFTER_HEADER } from '../streams.constants';
import { StreamsModuleSettings } from '../settings/internals/streams-module.settings';
import { StreamsMetricsService } from '../metrics/streams-metrics.service';

/** Codes of errors caused by the caller's input. */
const BAD_INPUT = new Set([
  'SERIALIZATION_ERROR',
  'INVALID_WINDOW',
  'INVALID_WINDOWED_KEY',
  'INVALID_STORE_PARTITION',
]);

/**
 * The HTTP status of an engine error:
 * - retriable (`StreamsNotStartedError`, `StateStoreNotAvailableError`,
 *   `StateStoreMigratedError`, an unreachable owner...): 503, with `Retry-After`;
 * - caused by the request (`SerializationError` — the key does not fit the store's serde —,
 *   `InvalidWindowError`, `InvalidStateStorePartitionError`, ...): 400;
 * - `UnsupportedStoreOperationError`: 501;
 * - anything else, `UnknownStateStoreError` included (routes name stores in code, so an
 *   unknown one is a server bug): 500.
 */
export function httpStatusOf(error: StreamsError): number {
  if (error.retriable) return 503;
  if (BAD_INPUT.has(error.code)) return 400;
  if (error.code === 'STORE_OPERATION_UNSUPPORTED') return 501;
  return 500;
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
};

/**
 * Turns the engine's typed errors (`StreamsError`) into HTTP answers per
 * `httpStatusOf` below, with a body `{ statusCode, error, code, retriable, message }`, and
 * `Retry-After` on 503. Registered for every route by default; other errors go on to Nest's
 * own handling. Outside HTTP (RPC) it re-throws the error.
 */
@Catch(StreamsError)
export class StreamsExceptionFilter implements ExceptionFilter<StreamsError> {
  constructor(
    @Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost,
    @Inject(StreamsModuleSettings) private readonly settings: StreamsModuleSettings,
    @Inject(StreamsMetricsService) private readonly metrics: StreamsMetricsService,
  ) {}

  catch(error: StreamsError, host: ArgumentsHost): void | Observable<never> {
    if (host.getType() !== 'http') return throwError(() => error);
    const adapter = this.adapterHost.httpAdapter;
    const response: unknown = host.switchToHttp().getResponse();
    const status = httpStatusOf(error);
    if (status === 503) {
      this.metrics.recordUnavailableAnswer();
      adapter.setHeader(response, RETRY_AFTER_HEADER, String(this.settings.retryAfterSeconds));
    }
    adapter.reply(
      response,
      {
        statusCode: status,
        error: REASONS[status],
        code: error.code,
        retriable: error.retriable,
        message: error.message,
      },
      status,
    );
  }
}

import {
  InvalidStateStorePartitionError,
  InvalidWindowError,
  SerializationError,
  StateStoreMigratedError,
  StateStoreNotAvailableError,
  StreamsNotStartedError,
  UnknownStateStoreError,
  UnsupportedStoreOperationError,
} from '@nest-streams/streams';
import { RemoteQueryError } from '../errors/remote-query.error';
import { OwnerUnreachableError } from '../errors/owner-unreachable.error';
import type { ArgumentsHost } from '@nestjs/common';
import type { HttpAdapterHost } from '@nestjs/core';
import { StreamsModuleSettings } from '../settings/internals/streams-module.settings';
import type { StreamsMetricsService } from '../metrics/streams-metrics.service';
import { httpStatusOf, StreamsExceptionFilter } from './streams-exception.filter';

describe('httpStatusOf', () => {
  it('maps retriable errors to 503, bad input to 400, the rest to 5xx', () => {
    expect(httpStatusOf(new StreamsNotStartedError('x'))).toBe(503);
    expect(httpStatusOf(new StateStoreNotAvailableError('x'))).toBe(503);
    expect(httpStatusOf(new StateStoreMigratedError('x'))).toBe(503);
    expect(httpStatusOf(new OwnerUnreachableError('h:1', 'x'))).toBe(503);
    expect(httpStatusOf(new RemoteQueryError('QUERY_TIMEOUT', true, 'x', 'h:1'))).toBe(503);
    expect(httpStatusOf(new SerializationError('x'))).toBe(400);
    expect(httpStatusOf(new InvalidWindowError('x'))).toBe(400);
    expect(httpStatusOf(new InvalidStateStorePartitionError('x'))).toBe(400);
    expect(httpStatusOf(new UnsupportedStoreOperationError('s', 'op', 'x'))).toBe(501);
    expect(httpStatusOf(new UnknownStateStoreError('x'))).toBe(500);
    expect(httpStatusOf(new RemoteQueryError('STORE_EXCEPTION', false, 'x', 'h:1'))).toBe(500);
  });
});

describe('StreamsExceptionFilter', () => {
  it('answers 503 with Retry-After and counts it for the cluster page', () => {
    const headers: [string, string][] = [];
    const replies: [unknown, number][] = [];
    const adapterHost = {
      httpAdapter: {
        setHeader: (_response: unknown, name: string, value: string) => headers.push([name, value]),
        reply: (_response: unknown, body: unknown, status: number) => replies.push([body, status]),
      },
    } as unknown as HttpAdapterHost;
    let counted = 0;
    const metrics = {
      recordUnavailableAnswer: () => counted++,
    } as unknown as StreamsMetricsService;
    const settings = new StreamsModuleSettings({
      streams: { applicationId: 'filter-spec', bootstrapServers: ['127.0.0.1:1'] },
    });
    const filter = new StreamsExceptionFilter(adapterHost, settings, metrics);
    const host = {
      getType: () => 'http',
      switchToHttp: () => ({ getResponse: () => ({}) }),
    } as unknown as ArgumentsHost;
    filter.catch(new StateStoreNotAvailableError('restoring'), host);
    filter.catch(new UnknownStateStoreError('nope'), host);
    expect(counted).toBe(1);
    expect(headers).toEqual([['Retry-After', '2']]);
    expect(replies.map(([, status]) => status)).toEqual([503, 500]);
  });
});

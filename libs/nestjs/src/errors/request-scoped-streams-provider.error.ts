import { StreamsError } from '@nest-streams/streams';

/**
 * A streams decorator (`@StateStore`, `@Aggregate`, `@Count`, `@Reduce`, `@Topology`,
 * `@RocksDBConfig`) sits on a request-scoped or transient provider (or one that depends on a
 * request-scoped provider). The topology runs outside any request, so it needs one instance
 * for the application's lifetime. Thrown at start-up. What to do: make the provider a
 * singleton (default scope) and move request-scoped work elsewhere; never retriable.
 */
export class RequestScopedStreamsProviderError extends StreamsError.coded(
  'REQUEST_SCOPED_STREAMS_PROVIDER',
  false,
) {
  constructor(
    readonly provider: string,
    readonly decorators: readonly string[],
    scope: string,
  ) {
    super(
      `${provider} is ${scope}, but carries ${decorators.join(', ')}: stream processing runs outside requests, so streams providers must be singletons (remove the scope, or move the decorators to a singleton provider)`,
    );
  }
}

import { StreamsError } from '@nest-streams/streams';

/**
 * A streams decorator is used in a way the module cannot build: an invalid store name or
 * option, a windowed aggregation into a key-value store (or the reverse), one store filled by
 * two aggregations, two `@RocksDBConfig()` providers... Thrown at start-up. What to do: fix
 * the declaration the message names; never retriable.
 */
export class InvalidStreamsDeclarationError extends StreamsError.coded(
  'INVALID_STREAMS_DECLARATION',
  false,
) {}

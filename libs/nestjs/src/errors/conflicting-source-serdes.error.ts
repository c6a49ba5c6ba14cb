import { StreamsError } from '@nest-streams/streams';

/**
 * Two decorators read one topic with different serdes. A topic is read once (one source
 * node) and shared by every aggregation over it, so its serdes must agree. Thrown at
 * start-up. What to do: give both the same `keySerde` / `valueSerde` (or set them on one
 * only); never retriable.
 */
export class ConflictingSourceSerdesError extends StreamsError.coded(
  'CONFLICTING_SOURCE_SERDES',
  false,
) {
  constructor(
    readonly topic: string,
    readonly first: string,
    readonly second: string,
    which: 'key' | 'value',
  ) {
    super(
      `topic '${topic}' is read with different ${which} serdes by ${first} and ${second}: use one serde for a topic`,
    );
  }
}

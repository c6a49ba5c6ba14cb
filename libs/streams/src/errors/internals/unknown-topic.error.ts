import { StreamsError } from '../streams.error';

/**
 * The broker that answered does not know the topic (or one of its partitions): it was never
 * created, it was deleted, or it was created a moment ago and has not reached that broker's
 * metadata yet. Kafka's `UNKNOWN_TOPIC_OR_PARTITION`.
 *
 * What to do: a caller that just created the topic retries after a short backoff (the engine
 * does, see `fetchTopicOffsetsSettled` and `createTopicsAndWait`); any other caller treats the
 * topic as missing. Retriable.
 */
export class UnknownTopicError extends StreamsError.coded('UNKNOWN_TOPIC_OR_PARTITION', true) {
  constructor(
    readonly topic: string,
    options?: { cause?: unknown },
  ) {
    super(`topic ${topic} (or one of its partitions) is not known to the broker`, options);
  }
}

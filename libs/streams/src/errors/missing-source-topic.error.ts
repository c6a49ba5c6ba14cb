import { StreamsError } from './streams.error';

/**
 * A source topic of the topology does not exist. Kafka Streams never creates user topics.
 * What to do: create the topics named in the message (with the partition counts you want),
 * then start again; retriable once the topics exist.
 */
export class MissingSourceTopicError extends StreamsError.coded('MISSING_SOURCE_TOPIC', true) {
  constructor(readonly topics: readonly string[]) {
    super(
      `source topic(s) missing: ${topics.join(', ')} (create them before starting the application)`,
    );
  }
}

import { StreamsError } from './streams.error';

/**
 * A configuration value that cannot work (a missing `application.id`, an unknown
 * `processing.guarantee`, a negative interval). Thrown by the `KafkaStreams` constructor.
 * What to do: fix the named setting; never retriable.
 */
export class StreamsConfigError extends StreamsError.coded('CONFIG_INVALID', false) {}

import { StreamsError } from '@nest-streams/streams';

/**
 * A `StreamsModule` option is invalid (a negative timeout, remote queries without a port,
 * ...). Thrown when the module creates `KafkaStreams`. What to do: fix the option the message
 * names; never retriable.
 */
export class StreamsModuleConfigError extends StreamsError.coded('MODULE_CONFIG_INVALID', false) {}

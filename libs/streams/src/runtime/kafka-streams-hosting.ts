/**
 * The key under which a host provides the `KafkaStreams` factory: the injection token that
 * `StreamsModule` of `@nest-streams/nestjs` looks its client factory up with (exported there as
 * `KAFKA_STREAMS_FACTORY` too). When a global module provides a factory under it (as
 * `StreamsTestingModule` of `@nest-streams/testing` does, to run the topology in a test
 * driver), the module creates its client with that factory instead of `new KafkaStreams(...)`.
 * Defined here, in the engine both packages depend on, so that the testing package provides it
 * without importing the Nest module. A registered symbol (`Symbol.for`): two copies of the
 * engine in one process still agree on it.
 */
export const KAFKA_STREAMS_FACTORY: unique symbol = Symbol.for(
  'nest-streams:kafka-streams-factory',
);

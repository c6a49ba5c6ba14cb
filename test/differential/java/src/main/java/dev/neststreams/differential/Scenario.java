package dev.neststreams.differential;

import org.apache.kafka.streams.StreamsBuilder;

/** One scenario's topology in Kafka Streams' DSL: the same topology its TypeScript twin builds. */
@FunctionalInterface
interface Scenario {
  void build(StreamsBuilder builder);
}

package dev.neststreams.differential;

import static dev.neststreams.differential.Scenarios.LONG;
import static dev.neststreams.differential.Scenarios.STR;
import static dev.neststreams.differential.Scenarios.num;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueStore;

/** Twins of test/differential/scenarios/aggregation.scenario.ts. */
final class AggregationScenarios {
  private AggregationScenarios() {}

  static void aggregateByKey(StreamsBuilder builder) {
    KGroupedStream<String, String> grouped =
        builder.stream("events", Consumed.with(STR, STR)).groupByKey();
    grouped
        .count(Materialized.as("counts"))
        .toStream()
        .to("out-count", Produced.with(STR, LONG));
    grouped
        .reduce((a, b) -> a + "," + b, Materialized.as("reduced"))
        .toStream()
        .to("out-reduce", Produced.with(STR, STR));
    grouped
        .aggregate(
            () -> 0L,
            (k, v, sum) -> sum + num(v),
            Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("sums").withValueSerde(LONG))
        .toStream()
        .to("out-sum", Produced.with(STR, LONG));
  }

  static void groupByRepartition(StreamsBuilder builder) {
    KStream<String, String> events = builder.stream("events", Consumed.with(STR, STR));
    events
        .groupBy((k, v) -> v == null ? "g-none" : "g" + num(v) % 4, Grouped.with(STR, STR))
        .count(Materialized.as("group-counts"))
        .toStream()
        .to("out-group-count", Produced.with(STR, LONG));
    events
        .selectKey((k, v) -> v == null ? "none" : v.substring(0, 1))
        .groupByKey()
        .reduce((a, b) -> a + "+" + b, Materialized.as("first-digit"))
        .toStream()
        .to("out-first-digit", Produced.with(STR, STR));
  }
}

package dev.neststreams.differential;

import static dev.neststreams.differential.Scenarios.STR;
import static dev.neststreams.differential.Scenarios.num;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueStore;

/** Twins of test/differential/scenarios/table.scenario.ts. */
final class TableScenarios {
  private TableScenarios() {}

  static KTable<String, String> table(StreamsBuilder builder, String topic, String store) {
    return builder.table(
        topic,
        Consumed.with(STR, STR),
        Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as(store));
  }

  static void tableSource(StreamsBuilder builder) {
    KTable<String, String> table = table(builder, "table-in", "source-table");
    table.toStream().to("out-table", Produced.with(STR, STR));
    table
        .filter((k, v) -> num(v) % 2 == 0)
        .toStream()
        .to("out-filtered", Produced.with(STR, STR));
    table
        .filterNot(
            (k, v) -> num(v) % 3 == 0,
            Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("filtered-not"))
        .toStream()
        .to("out-filtered-not", Produced.with(STR, STR));
    table
        .mapValues(
            (k, v) -> k + ":" + v,
            Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("mapped"))
        .toStream()
        .to("out-mapped", Produced.with(STR, STR));
    KTable<String, String> plain = builder.table("plain-table-in", Consumed.with(STR, STR));
    plain.toStream().to("out-plain", Produced.with(STR, STR));
    plain
        .filter((k, v) -> num(v) % 2 == 0)
        .toStream()
        .to("out-plain-filtered", Produced.with(STR, STR));
  }

  static void streamTableJoin(StreamsBuilder builder) {
    KTable<String, String> users = table(builder, "users", "users-store");
    KStream<String, String> orders = builder.stream("orders", Consumed.with(STR, STR));
    orders.join(users, (o, u) -> o + "@" + u).to("out-join", Produced.with(STR, STR));
    orders.leftJoin(users, (o, u) -> o + "@" + u).to("out-left-join", Produced.with(STR, STR));
    orders
        .selectKey((k, v) -> v == null ? "k0" : "k" + num(v) % 6)
        .join(users, (o, u) -> o + "@" + u)
        .to("out-rekeyed-join", Produced.with(STR, STR));
  }

  static void tableTableJoin(StreamsBuilder builder) {
    KTable<String, String> left = table(builder, "left", "left-store");
    KTable<String, String> right = table(builder, "right", "right-store");
    left.join(
            right,
            (l, r) -> l + "+" + r,
            Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("inner-join"))
        .toStream()
        .to("out-inner", Produced.with(STR, STR));
    left.leftJoin(right, (l, r) -> l + "+" + r).toStream().to("out-left", Produced.with(STR, STR));
  }
}

package dev.neststreams.differential;

import static dev.neststreams.differential.Scenarios.LONG;
import static dev.neststreams.differential.Scenarios.STR;
import static dev.neststreams.differential.Scenarios.num;

import java.time.Duration;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.CogroupedKStream;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.KGroupedTable;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Suppressed;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * Twins of the table-side new operators' scenarios (test/differential/scenarios/awaiting-operators):
 * suppress, KTable.groupBy aggregations, toTable, cogroup, outer and foreign-key table joins,
 * processValues.
 */
final class TableOperatorScenarios {
  private TableOperatorScenarios() {}

  static void suppress(StreamsBuilder builder) {
    KGroupedStream<String, String> grouped =
        builder.stream("events", Consumed.with(STR, STR)).groupByKey();
    grouped
        .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(100), Duration.ofMillis(20)))
        .count(Materialized.as("suppressed-window-counts"))
        .suppress(Suppressed.untilWindowCloses(Suppressed.BufferConfig.unbounded()))
        .toStream()
        .to("out-final-counts", Produced.with(WindowScenarios.timeWindowed(100), LONG));
    grouped
        .count(Materialized.as("suppressed-counts"))
        .suppress(
            Suppressed.untilTimeLimit(
                Duration.ofMillis(100), Suppressed.BufferConfig.maxRecords(3).emitEarlyWhenFull()))
        .toStream()
        .to("out-rate-limited", Produced.with(STR, LONG));
  }

  static void tableGroupBy(StreamsBuilder builder) {
    KGroupedTable<String, String> grouped =
        TableScenarios.table(builder, "table-in", "grouped-source")
            .groupBy((k, v) -> KeyValue.pair("g" + num(v) % 3, v), Grouped.with(STR, STR));
    grouped.count(Materialized.as("table-group-count")).toStream().to("out-tg-count", Produced.with(STR, LONG));
    grouped
        .reduce((agg, v) -> agg + "+" + v, (agg, v) -> agg + "-" + v, Materialized.as("table-group-reduce"))
        .toStream()
        .to("out-tg-reduce", Produced.with(STR, STR));
    grouped
        .aggregate(
            () -> 0L,
            (k, v, sum) -> sum + num(v),
            (k, v, sum) -> sum - num(v),
            Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("table-group-sum").withValueSerde(LONG))
        .toStream()
        .to("out-tg-sum", Produced.with(STR, LONG));
  }

  static void toTable(StreamsBuilder builder) {
    KStream<String, String> events = builder.stream("events", Consumed.with(STR, STR));
    events
        .toTable(Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("as-table"))
        .toStream()
        .to("out-to-table", Produced.with(STR, STR));
    events.mapValues(v -> v + "!").toTable().toStream().to("out-to-table-plain", Produced.with(STR, STR));
  }

  static void cogroup(StreamsBuilder builder) {
    KGroupedStream<String, String> clicks =
        builder.stream("clicks", Consumed.with(STR, STR)).groupByKey();
    KGroupedStream<String, String> views =
        builder.stream("views", Consumed.with(STR, STR)).groupByKey();
    CogroupedKStream<String, String> cogrouped =
        clicks.<String>cogroup((k, v, agg) -> agg + "c" + v).cogroup(views, (k, v, agg) -> agg + "v" + v);
    cogrouped
        .aggregate(() -> "", Materialized.as("cogrouped"))
        .toStream()
        .to("out-cogrouped", Produced.with(STR, STR));
    cogrouped
        .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(100), Duration.ofMillis(50)))
        .aggregate(() -> "", Materialized.as("cogrouped-windows"))
        .toStream()
        .to("out-cogrouped-windows", Produced.with(WindowScenarios.timeWindowed(100), STR));
  }

  static void tableOuterJoin(StreamsBuilder builder) {
    KTable<String, String> left = TableScenarios.table(builder, "left", "outer-left-store");
    KTable<String, String> right = TableScenarios.table(builder, "right", "outer-right-store");
    left.outerJoin(
            right,
            (l, r) -> l + "+" + r,
            Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("outer-join"))
        .toStream()
        .to("out-outer", Produced.with(STR, STR));
  }

  static void foreignKeyJoin(StreamsBuilder builder) {
    KTable<String, String> orders = TableScenarios.table(builder, "fk-orders", "fk-orders-store");
    KTable<String, String> customers = TableScenarios.table(builder, "fk-customers", "fk-customers-store");
    orders
        .join(customers, v -> "k" + num(v) % 6, (o, c) -> o + "@" + c)
        .toStream()
        .to("out-fk-join", Produced.with(STR, STR));
    orders
        .leftJoin(customers, v -> "k" + num(v) % 6, (o, c) -> o + "@" + c)
        .toStream()
        .to("out-fk-left-join", Produced.with(STR, STR));
  }

  /** Counts per key in a store and appends the count to the value. */
  static final class CountingValues implements FixedKeyProcessor<String, String, String> {
    private FixedKeyProcessorContext<String, String> context;
    private KeyValueStore<String, Long> store;

    @Override
    public void init(FixedKeyProcessorContext<String, String> context) {
      this.context = context;
      this.store = context.getStateStore("value-counts");
    }

    @Override
    public void process(FixedKeyRecord<String, String> record) {
      if (record.key() == null) return;
      Long old = store.get(record.key());
      long count = (old == null ? 0 : old) + 1;
      store.put(record.key(), count);
      context.forward(record.withValue(record.value() + "#" + count));
    }
  }

  static void processValues(StreamsBuilder builder) {
    builder.addStateStore(
        Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore("value-counts"), STR, LONG));
    builder.stream("events", Consumed.with(STR, STR))
        .processValues(CountingValues::new, "value-counts")
        .groupByKey()
        .count(Materialized.as("counted-after-values"))
        .toStream()
        .to("out-process-values", Produced.with(STR, LONG));
  }
}

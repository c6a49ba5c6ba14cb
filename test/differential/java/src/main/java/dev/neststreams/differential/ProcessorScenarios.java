package dev.neststreams.differential;

import static dev.neststreams.differential.Scenarios.LONG;
import static dev.neststreams.differential.Scenarios.STR;
import static dev.neststreams.differential.Scenarios.num;

import java.time.Duration;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/** Twins of test/differential/scenarios/processor.scenario.ts. */
final class ProcessorScenarios {
  private ProcessorScenarios() {}

  /** Counts per key, forwards {@code value#count}; totals on stream-time and wall-clock punctuation. */
  static final class CountingProcessor implements Processor<String, String, String, String> {
    private ProcessorContext<String, String> context;
    private KeyValueStore<String, Long> store;

    @Override
    public void init(ProcessorContext<String, String> context) {
      this.context = context;
      this.store = context.getStateStore("seen");
      context.schedule(Duration.ofMillis(100), PunctuationType.STREAM_TIME, ts -> total("stream", ts));
      context.schedule(Duration.ofMillis(1000), PunctuationType.WALL_CLOCK_TIME, ts -> total("wall", ts));
    }

    @Override
    public void process(Record<String, String> record) {
      if (record.key() == null) return;
      Long old = store.get(record.key());
      long count = (old == null ? 0 : old) + 1;
      store.put(record.key(), count);
      context.forward(record.withValue(record.value() + "#" + count));
    }

    private void total(String kind, long timestamp) {
      long total = 0;
      try (KeyValueIterator<String, Long> all = store.all()) {
        while (all.hasNext()) total += all.next().value;
      }
      context.forward(new Record<>(kind, total + "@" + timestamp, timestamp));
    }
  }

  static void processorPunctuation(StreamsBuilder builder) {
    builder.addStateStore(
        Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore("seen"), STR, LONG));
    builder.stream("events", Consumed.with(STR, STR))
        .process(CountingProcessor::new, "seen")
        .to("out-processed", Produced.with(STR, STR));
  }

  static void repartitionJoin(StreamsBuilder builder) {
    KStream<String, String> events = builder.stream("events", Consumed.with(STR, STR));
    KTable<String, Long> byMod3 =
        events.groupBy((k, v) -> "g" + num(v) % 3).count(Materialized.as("by-mod3"));
    KTable<String, Long> byMod2 =
        events.groupBy((k, v) -> "g" + num(v) % 2).count(Materialized.as("by-mod2"));
    byMod3.join(byMod2, (a, b) -> a + "/" + b).toStream().to("out-count-join", Produced.with(STR, STR));
    events
        .merge(builder.stream("more-events", Consumed.with(STR, STR)))
        .selectKey((k, v) -> "m" + num(v) % 4)
        .groupByKey()
        .aggregate(
            () -> 0L,
            (k, v, sum) -> sum + num(v),
            Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("merged-sum").withValueSerde(LONG))
        .toStream()
        .to("out-merged-sum", Produced.with(STR, LONG));
  }
}

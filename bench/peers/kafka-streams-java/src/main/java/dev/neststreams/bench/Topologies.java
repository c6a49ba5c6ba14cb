package dev.neststreams.bench;

import java.time.Duration;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.WindowStore;

/** The benchmark topologies, written with the DSL as a Kafka Streams user would. */
final class Topologies {
  static final String STATS_STORE = "stats-store";
  static final String WINDOWED_STORE = "windowed-count-store";
  static final Duration WINDOW_SIZE = Duration.ofMinutes(5);
  static final Duration WINDOW_RETENTION = Duration.ofHours(1);

  private Topologies() {}

  /** Count and sum per user into the persistent, cached, logged store {@code stats-store}. */
  static Topology aggregate(String inputTopic) {
    StreamsBuilder builder = new StreamsBuilder();
    builder.stream(inputTopic, Consumed.with(Serdes.String(), Json.serde(Event.class)))
        .groupByKey()
        .aggregate(
            Stats::empty,
            (userId, event, stats) -> stats.add(event),
            Materialized.<String, Stats, KeyValueStore<Bytes, byte[]>>as(STATS_STORE)
                .withKeySerde(Serdes.String())
                .withValueSerde(Json.serde(Stats.class)));
    return builder.build();
  }

  /**
   * The example application's topology (apps/order-stats), for the {@code serve} mode: count
   * and sum in cents per user into {@code stats-store} and a 5-minute tumbling count into
   * {@code windowed-count-store}, both persistent, cached and logged, from events whose amount
   * has 2 decimals ({@link OrderEvent}).
   */
  static Topology orderStats(String inputTopic) {
    StreamsBuilder builder = new StreamsBuilder();
    var events =
        builder.stream(inputTopic, Consumed.with(Serdes.String(), Json.serde(OrderEvent.class)));
    events
        .groupByKey()
        .aggregate(
            Stats::empty,
            (userId, event, stats) -> new Stats(stats.count() + 1, stats.sum() + event.cents()),
            Materialized.<String, Stats, KeyValueStore<Bytes, byte[]>>as(STATS_STORE)
                .withKeySerde(Serdes.String())
                .withValueSerde(Json.serde(Stats.class)));
    countPerWindow(events);
    return builder.build();
  }

  /** Every fifth store of the memory topology (indices 4, 9, 14, ...) is a windowed count. */
  static final int WINDOWED_EVERY = 5;

  /** Whether the {@code i}-th store of the memory topology is windowed (as nest-streams'). */
  static boolean isWindowedStore(int i) {
    return i % WINDOWED_EVERY == WINDOWED_EVERY - 1;
  }

  /** The name of the {@code i}-th store of the memory topology (as nest-streams'). */
  static String memoryStoreName(int i) {
    return String.format(isWindowedStore(i) ? "windowed-count-store-%03d" : "count-store-%03d", i);
  }

  /**
   * The {@code memory} scenario's topology, as nest-streams' (bench/topologies/memory-topology.ts):
   * {@code stores} stores over the same input, each persistent and without a changelog; every
   * fifth ({@link #isWindowedStore}) a count per user in 5-minute tumbling windows without grace
   * (retention one hour), the others a cached count per user.
   */
  static Topology memoryCounts(String inputTopic, int stores) {
    StreamsBuilder builder = new StreamsBuilder();
    var events = builder.stream(inputTopic, Consumed.with(Serdes.String(), Json.serde(Event.class)));
    for (int i = 0; i < stores; i++) {
      if (isWindowedStore(i)) {
        events
            .groupByKey()
            .windowedBy(TimeWindows.ofSizeWithNoGrace(WINDOW_SIZE))
            .count(
                Materialized.<String, Long, WindowStore<Bytes, byte[]>>as(memoryStoreName(i))
                    .withKeySerde(Serdes.String())
                    .withValueSerde(Serdes.Long())
                    .withRetention(WINDOW_RETENTION)
                    .withLoggingDisabled());
      } else {
        events
            .groupByKey()
            .count(
                Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as(memoryStoreName(i))
                    .withKeySerde(Serdes.String())
                    .withValueSerde(Serdes.Long())
                    .withLoggingDisabled());
      }
    }
    return builder.build();
  }

  /** Count per user in 5-minute tumbling windows without grace, retained for one hour. */
  static Topology windowed(String inputTopic) {
    StreamsBuilder builder = new StreamsBuilder();
    countPerWindow(
        builder.stream(inputTopic, Consumed.with(Serdes.String(), Json.serde(Event.class))));
    return builder.build();
  }

  /** {@code events} counted per user into {@code windowed-count-store} (see {@link #windowed}). */
  private static <V> void countPerWindow(KStream<String, V> events) {
    events
        .groupByKey()
        .windowedBy(TimeWindows.ofSizeWithNoGrace(WINDOW_SIZE))
        .count(
            Materialized.<String, Long, WindowStore<Bytes, byte[]>>as(WINDOWED_STORE)
                .withKeySerde(Serdes.String())
                .withValueSerde(Serdes.Long())
                .withRetention(WINDOW_RETENTION));
  }
}

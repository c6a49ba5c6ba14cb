package dev.neststreams.differential;

import static dev.neststreams.differential.Scenarios.LONG;
import static dev.neststreams.differential.Scenarios.STR;
import static dev.neststreams.differential.Scenarios.num;

import java.time.Duration;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.kstream.WindowedSerdes;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.WindowStore;

/** Twins of test/differential/scenarios/window.scenario.ts. */
final class WindowScenarios {
  /** Retention of the windowed stores under caching: longer than any case (see the TypeScript twin). */
  private static final Duration HOUR = Duration.ofHours(1);

  private WindowScenarios() {}

  static Serde<Windowed<String>> timeWindowed(long sizeMs) {
    return WindowedSerdes.timeWindowedSerdeFrom(String.class, sizeMs);
  }

  static Serde<Windowed<String>> sessionWindowed() {
    return WindowedSerdes.sessionWindowedSerdeFrom(String.class);
  }

  static void timeWindows(StreamsBuilder builder) {
    KGroupedStream<String, String> grouped =
        builder.stream("events", Consumed.with(STR, STR)).groupByKey();
    grouped
        .windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(100)))
        .count(Materialized.<String, Long, WindowStore<Bytes, byte[]>>as("tumbling-counts").withRetention(HOUR))
        .toStream()
        .to("out-tumbling", Produced.with(timeWindowed(100), LONG));
    grouped
        .windowedBy(
            TimeWindows.ofSizeAndGrace(Duration.ofMillis(100), Duration.ofMillis(50))
                .advanceBy(Duration.ofMillis(40)))
        .aggregate(
            () -> 0L,
            (k, v, sum) -> sum + num(v),
            Materialized.<String, Long, WindowStore<Bytes, byte[]>>as("hopping-sums")
                .withValueSerde(LONG)
                .withRetention(HOUR))
        .toStream()
        .to("out-hopping", Produced.with(timeWindowed(100), LONG));
    grouped
        .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(60), Duration.ofMillis(200)))
        .reduce(
            (a, b) -> a + "," + b,
            Materialized.<String, String, WindowStore<Bytes, byte[]>>as("grace-reduce").withRetention(HOUR))
        .toStream()
        .to("out-grace-reduce", Produced.with(timeWindowed(60), STR));
  }

  static void sessionWindows(StreamsBuilder builder) {
    KGroupedStream<String, String> grouped =
        builder.stream("events", Consumed.with(STR, STR)).groupByKey();
    grouped
        .windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofMillis(50), Duration.ofMillis(20)))
        .count(Materialized.<String, Long, SessionStore<Bytes, byte[]>>as("session-counts").withRetention(HOUR))
        .toStream()
        .to("out-session-count", Produced.with(sessionWindowed(), LONG));
    grouped
        .windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofMillis(30)))
        .reduce(
            (a, b) -> a + "," + b,
            Materialized.<String, String, SessionStore<Bytes, byte[]>>as("session-reduce").withRetention(HOUR))
        .toStream()
        .to("out-session-reduce", Produced.with(sessionWindowed(), STR));
    grouped
        .windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofMillis(40), Duration.ofMillis(100)))
        .aggregate(
            () -> 0L,
            (k, v, sum) -> sum + num(v),
            (k, a, b) -> a + b,
            Materialized.<String, Long, SessionStore<Bytes, byte[]>>as("session-sums")
                .withValueSerde(LONG)
                .withRetention(HOUR))
        .toStream()
        .to("out-session-sum", Produced.with(sessionWindowed(), LONG));
  }

  static void windowedExpiry(StreamsBuilder builder) {
    KGroupedStream<String, String> grouped =
        builder.stream("events", Consumed.with(STR, STR)).groupByKey();
    grouped
        .windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(100)))
        .count(Materialized.as("expiry-tumbling"))
        .toStream()
        .to("out-expiry-tumbling", Produced.with(timeWindowed(100), LONG));
    grouped
        .windowedBy(
            TimeWindows.ofSizeAndGrace(Duration.ofMillis(100), Duration.ofMillis(30))
                .advanceBy(Duration.ofMillis(50)))
        .reduce((a, b) -> a + "," + b, Materialized.as("expiry-hopping"))
        .toStream()
        .to("out-expiry-hopping", Produced.with(timeWindowed(100), STR));
    grouped
        .windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofMillis(40), Duration.ofMillis(20)))
        .count(Materialized.as("expiry-session"))
        .toStream()
        .to("out-expiry-session", Produced.with(sessionWindowed(), LONG));
  }
}

package dev.neststreams.differential;

import static dev.neststreams.differential.Scenarios.LONG;
import static dev.neststreams.differential.Scenarios.STR;
import static dev.neststreams.differential.Scenarios.num;

import java.time.Duration;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.EmitStrategy;
import org.apache.kafka.streams.kstream.GlobalKTable;
import org.apache.kafka.streams.kstream.JoinWindows;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.SlidingWindows;
import org.apache.kafka.streams.kstream.StreamJoined;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.WindowStore;

/**
 * Twins of the stream-side new operators' scenarios (test/differential/scenarios/awaiting-operators):
 * stream-stream joins, sliding windows, emit on window close, GlobalKTable joins.
 */
final class StreamJoinScenarios {
  private static final Duration HOUR = Duration.ofHours(1);

  private StreamJoinScenarios() {}

  static void streamStreamJoin(StreamsBuilder builder) {
    KStream<String, String> left = builder.stream("left", Consumed.with(STR, STR));
    KStream<String, String> right = builder.stream("right", Consumed.with(STR, STR));
    JoinWindows windows = JoinWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(50), Duration.ofMillis(20));
    StreamJoined<String, String, String> serdes = StreamJoined.with(STR, STR, STR);
    left.join(right, (l, r) -> l + "+" + r, windows, serdes).to("out-join", Produced.with(STR, STR));
    left.leftJoin(right, (l, r) -> l + "+" + r, windows, serdes).to("out-left-join", Produced.with(STR, STR));
    left.outerJoin(right, (l, r) -> l + "+" + r, windows, serdes).to("out-outer-join", Produced.with(STR, STR));
    left.join(
            right,
            (l, r) -> l + "*" + r,
            JoinWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(30)),
            serdes)
        .to("out-join-no-grace", Produced.with(STR, STR));
  }

  static void slidingWindows(StreamsBuilder builder) {
    KGroupedStream<String, String> grouped =
        builder.stream("events", Consumed.with(STR, STR)).groupByKey();
    grouped
        .windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(50), Duration.ofMillis(30)))
        .count(Materialized.<String, Long, WindowStore<Bytes, byte[]>>as("sliding-counts").withRetention(HOUR))
        .toStream()
        .to("out-sliding-count", Produced.with(WindowScenarios.timeWindowed(50), LONG));
    grouped
        .windowedBy(SlidingWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(40)))
        .aggregate(
            () -> 0L,
            (k, v, sum) -> sum + num(v),
            Materialized.<String, Long, WindowStore<Bytes, byte[]>>as("sliding-sums")
                .withValueSerde(LONG)
                .withRetention(HOUR))
        .toStream()
        .to("out-sliding-sum", Produced.with(WindowScenarios.timeWindowed(40), LONG));
  }

  static void emitOnWindowClose(StreamsBuilder builder) {
    KGroupedStream<String, String> grouped =
        builder.stream("events", Consumed.with(STR, STR)).groupByKey();
    grouped
        .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(100), Duration.ofMillis(20)))
        .emitStrategy(EmitStrategy.onWindowClose())
        .count(Materialized.as("closed-counts"))
        .toStream()
        .to("out-closed-count", Produced.with(WindowScenarios.timeWindowed(100), LONG));
    grouped
        .windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofMillis(40), Duration.ofMillis(10)))
        .emitStrategy(EmitStrategy.onWindowClose())
        .count(Materialized.as("closed-sessions"))
        .toStream()
        .to("out-closed-session", Produced.with(WindowScenarios.sessionWindowed(), LONG));
  }

  static void globalTableJoin(StreamsBuilder builder) {
    GlobalKTable<String, String> users =
        builder.globalTable(
            "global-users",
            Consumed.with(STR, STR),
            Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("global-users-store"));
    KStream<String, String> orders = builder.stream("orders", Consumed.with(STR, STR));
    orders
        .join(users, (k, v) -> "k" + num(v) % 8, (o, u) -> o + "@" + u)
        .to("out-global-join", Produced.with(STR, STR));
    orders
        .leftJoin(users, (k, v) -> "k" + num(v) % 8, (o, u) -> o + "@" + u)
        .to("out-global-left-join", Produced.with(STR, STR));
  }
}

package dev.neststreams.differential;

import static dev.neststreams.differential.Scenarios.STR;
import static dev.neststreams.differential.Scenarios.num;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;

/** Twins of test/differential/scenarios/stateless.scenario.ts. */
final class StatelessScenarios {
  private StatelessScenarios() {}

  static void stateless(StreamsBuilder builder) {
    KStream<String, String> events = builder.stream("events", Consumed.with(STR, STR));
    KStream<String, String> doubled =
        events
            .filter((k, v) -> v != null && num(v) % 3 != 0)
            .mapValues(v -> String.valueOf(num(v) * 2));
    events
        .filterNot((k, v) -> v == null)
        .map((k, v) -> KeyValue.pair(v, k))
        .flatMap(
            (k, v) -> {
              List<KeyValue<String, String>> out = new ArrayList<>();
              for (int i = 0; i < num(k) % 3; i++) out.add(KeyValue.pair(k + "-" + i, v));
              return out;
            })
        .to("out-swapped", Produced.with(STR, STR));
    KStream<String, String> words =
        builder
            .stream("more-events", Consumed.with(STR, STR))
            .selectKey((k, v) -> k + "/" + v)
            .flatMapValues(v -> v == null ? List.<String>of() : List.of(v, v + "!"));
    Map<String, KStream<String, String>> branches =
        doubled
            .merge(words)
            .split(Named.as("br-"))
            .branch((k, v) -> v.length() > 2, Branched.as("long"))
            .defaultBranch(Branched.as("short"));
    branches.get("br-long").to("out-long", Produced.with(STR, STR));
    branches.get("br-short").to("out-short", Produced.with(STR, STR));
  }
}

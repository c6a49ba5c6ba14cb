package dev.neststreams.bench;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;

/**
 * Reads the final aggregates through interactive queries, writes them as the harness's TSV
 * (aggregate: {@code key\tcount\tsum}; windowed: {@code key\twindowStart\tcount}) and compares
 * them with the truth file of the same format.
 */
final class StoreCheck {
  /** The outcome of a comparison. */
  record Outcome(long entries, long mismatches, String firstMismatch) {}

  private StoreCheck() {}

  static Outcome check(KafkaStreams streams, String mode, Path truthFile, Path dumpFile)
      throws IOException {
    return check(streams, mode, truthFile, dumpFile, false);
  }

  /**
   * With {@code atLeast} (aggregate only: at-least-once after a crash, where reprocessed events
   * count twice), a value matches when its count and sum are at least the truth's.
   */
  static Outcome check(
      KafkaStreams streams, String mode, Path truthFile, Path dumpFile, boolean atLeast)
      throws IOException {
    Map<String, String> truth = new HashMap<>();
    for (String line : Files.readAllLines(truthFile, StandardCharsets.UTF_8)) {
      if (line.isEmpty()) continue;
      int split = mode.equals("windowed") ? line.indexOf('\t', line.indexOf('\t') + 1) : line.indexOf('\t');
      truth.put(line.substring(0, split), line.substring(split + 1));
    }
    long entries = 0;
    long mismatches = 0;
    String first = null;
    try (BufferedWriter out = Files.newBufferedWriter(dumpFile, StandardCharsets.UTF_8)) {
      if (mode.equals("windowed")) {
        ReadOnlyWindowStore<String, Long> store =
            streams.store(
                StoreQueryParameters.fromNameAndType(
                    Topologies.WINDOWED_STORE, QueryableStoreTypes.windowStore()));
        try (KeyValueIterator<Windowed<String>, Long> it = store.all()) {
          while (it.hasNext()) {
            KeyValue<Windowed<String>, Long> entry = it.next();
            String key = entry.key.key() + "\t" + entry.key.window().start();
            String value = Long.toString(entry.value);
            out.write(key + "\t" + value + "\n");
            entries++;
            if (!value.equals(truth.remove(key))) {
              mismatches++;
              if (first == null) first = key + " -> " + value;
            }
          }
        }
      } else {
        ReadOnlyKeyValueStore<String, Stats> store =
            streams.store(
                StoreQueryParameters.fromNameAndType(
                    Topologies.STATS_STORE, QueryableStoreTypes.keyValueStore()));
        try (KeyValueIterator<String, Stats> it = store.all()) {
          while (it.hasNext()) {
            KeyValue<String, Stats> entry = it.next();
            String value = entry.value.count() + "\t" + entry.value.sum();
            out.write(entry.key + "\t" + value + "\n");
            entries++;
            String expected = truth.remove(entry.key);
            boolean matches =
                atLeast ? atLeast(entry.value, expected) : value.equals(expected);
            if (!matches) {
              mismatches++;
              if (first == null) first = entry.key + " -> " + value;
            }
          }
        }
      }
    }
    if (!truth.isEmpty()) {
      mismatches += truth.size();
      if (first == null) first = "missing " + truth.keySet().iterator().next();
    }
    return new Outcome(entries, mismatches, first);
  }

  private static boolean atLeast(Stats got, String expected) {
    if (expected == null) return false;
    String[] cells = expected.split("\t");
    return got.count() >= Long.parseLong(cells[0]) && got.sum() >= Long.parseLong(cells[1]);
  }
}

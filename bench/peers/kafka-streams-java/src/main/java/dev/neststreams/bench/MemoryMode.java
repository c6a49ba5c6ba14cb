package dev.neststreams.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The {@code memory} mode, once the N count stores are filled: reads every entry of every store
 * (interactive queries, {@code all()}) and compares it with the truth's counts, then forces a
 * GC, waits a second and reads the process's resident memory. Prints one JSON result line
 * ({@code details.rssMb}, {@code peakRssMb} = VmHWM); exits 2 on a wrong answer.
 */
final class MemoryMode {
  private MemoryMode() {}

  static int run(KafkaStreams streams, PeerArgs args, long records, double seconds)
      throws IOException, InterruptedException {
    Map<String, Long> truth = new HashMap<>();
    for (String line : Files.readAllLines(Path.of(args.truthFile()), StandardCharsets.UTF_8)) {
      if (line.isEmpty()) continue;
      String[] cells = line.split("\t");
      truth.put(cells[0], Long.parseLong(cells[1]));
    }
    long entries = 0;
    long mismatches = 0;
    String first = null;
    for (int i = 0; i < args.stores(); i++) {
      String name = Topologies.countStoreName(i);
      ReadOnlyKeyValueStore<String, Long> store =
          streams.store(StoreQueryParameters.fromNameAndType(name, QueryableStoreTypes.keyValueStore()));
      long seen = 0;
      try (KeyValueIterator<String, Long> it = store.all()) {
        while (it.hasNext()) {
          KeyValue<String, Long> entry = it.next();
          entries++;
          seen++;
          if (!entry.value.equals(truth.get(entry.key))) {
            mismatches++;
            if (first == null) first = name + " " + entry.key + " -> " + entry.value;
          }
        }
      }
      if (seen != truth.size()) {
        mismatches++;
        if (first == null) first = name + ": " + seen + " entries, expected " + truth.size();
      }
    }
    System.gc();
    Thread.sleep(1000);
    double rssMb = status("VmRSS:");
    double peakRssMb = status("VmHWM:");
    StringBuilder json = new StringBuilder();
    json.append("{\"system\":\"kafka-streams-java\",\"mode\":\"memory\"")
        .append(",\"records\":").append(records)
        .append(",\"seconds\":").append(seconds)
        .append(",\"peakRssMb\":").append(peakRssMb)
        .append(",\"storeEntries\":").append(entries)
        .append(",\"mismatches\":").append(mismatches);
    if (first != null) json.append(",\"firstMismatch\":\"").append(first.replace("\"", "'")).append('"');
    json.append(",\"details\":{\"rssMb\":").append(rssMb)
        .append(",\"stores\":").append(args.stores())
        .append(",\"rocksdb\":\"").append(args.rocksdb()).append("\"")
        .append(",\"heapUsedMb\":")
        .append((Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()) / 1048576.0)
        .append(",\"heapCommittedMb\":").append(Runtime.getRuntime().totalMemory() / 1048576.0)
        .append("}}");
    System.out.println(json);
    System.out.flush();
    return mismatches == 0 ? 0 : 2;
  }

  /** A /proc/self/status line's value, in MiB. */
  private static double status(String field) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.UTF_8)) {
      if (line.startsWith(field)) return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
    }
    return -1;
  }
}

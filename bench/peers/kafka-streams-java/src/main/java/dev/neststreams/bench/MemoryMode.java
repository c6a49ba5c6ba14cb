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
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;

/**
 * The {@code memory} mode, once the N stores are filled, as nest-streams' worker
 * (bench/workers/memory-store-reads.ts): reads every entry of every store (interactive queries,
 * {@code all()}) and compares it with the truths (counts per user for the key-value stores,
 * counts per user and window for the windowed ones), then reads every key of every store
 * {@link #POINT_READ_PASSES} times by point lookup ({@code get}, {@code fetch(user,
 * windowStart)}), checking each value; then forces a GC, waits a second and reads the process's
 * resident memory. Prints one JSON result line ({@code details.rssMb}, {@code
 * peakRssMb} = VmHWM, {@code details.pointReads}); exits 2 on a wrong answer.
 */
final class MemoryMode {
  static final int POINT_READ_PASSES = 2;

  private long entries;
  private long pointReads;
  private long mismatches;
  private String first;

  private MemoryMode() {}

  static int run(KafkaStreams streams, PeerArgs args, long records, double seconds)
      throws IOException, InterruptedException {
    // The counts truth is the aggregate's (user, count, sum); the windowed one (user, window
    // start, count) is keyed "user\twindowStart".
    Map<String, Long> counts = readTruth(args.truthFile(), false);
    Map<String, Long> windows = readTruth(args.windowedTruthFile(), true);
    MemoryMode check = new MemoryMode();
    // The peer has no dropped-input variant: every store must hold the truth.
    boolean filled = true;
    for (int i = 0; i < args.stores(); i++) {
      if (Topologies.isWindowedStore(i)) check.scanWindowed(streams, i, windows, filled);
      else check.scanKeyValue(streams, i, counts, filled);
    }
    for (int pass = 0; pass < POINT_READ_PASSES; pass++) {
      for (int i = 0; i < args.stores(); i++) {
        if (Topologies.isWindowedStore(i)) check.fetchWindows(streams, i, windows, filled);
        else check.getKeys(streams, i, counts, filled);
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
        .append(",\"storeEntries\":").append(check.entries)
        .append(",\"mismatches\":").append(check.mismatches);
    if (check.first != null) {
      json.append(",\"firstMismatch\":\"").append(check.first.replace("\"", "'")).append('"');
    }
    json.append(",\"details\":{\"rssMb\":").append(rssMb)
        .append(",\"stores\":").append(args.stores())
        .append(",\"pointReads\":").append(check.pointReads)
        .append(",\"rocksdb\":\"").append(args.rocksdb()).append("\"")
        .append(",\"heapUsedMb\":")
        .append((Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()) / 1048576.0)
        .append(",\"heapCommittedMb\":").append(Runtime.getRuntime().totalMemory() / 1048576.0)
        .append(",\"heapMaxMb\":").append(Runtime.getRuntime().maxMemory() / 1048576.0)
        .append("}}");
    System.out.println(json);
    System.out.flush();
    return check.mismatches == 0 ? 0 : 2;
  }

  private void mismatch(String problem) {
    mismatches++;
    if (first == null) first = problem;
  }

  private void scanKeyValue(KafkaStreams streams, int i, Map<String, Long> truth, boolean filled) {
    String name = Topologies.memoryStoreName(i);
    long seen = 0;
    try (KeyValueIterator<String, Long> it = keyValueStore(streams, name).all()) {
      while (it.hasNext()) {
        KeyValue<String, Long> entry = it.next();
        seen++;
        if (!entry.value.equals(truth.get(entry.key))) mismatch(name + " " + entry.key + " -> " + entry.value);
      }
    }
    countScan(name, seen, filled ? truth.size() : 0);
  }

  private void scanWindowed(KafkaStreams streams, int i, Map<String, Long> truth, boolean filled) {
    String name = Topologies.memoryStoreName(i);
    long seen = 0;
    try (KeyValueIterator<Windowed<String>, Long> it = windowStore(streams, name).all()) {
      while (it.hasNext()) {
        KeyValue<Windowed<String>, Long> entry = it.next();
        seen++;
        String key = entry.key.key() + "\t" + entry.key.window().start();
        if (!entry.value.equals(truth.get(key))) mismatch(name + " " + key + " -> " + entry.value);
      }
    }
    countScan(name, seen, filled ? truth.size() : 0);
  }

  private void countScan(String name, long seen, long expected) {
    entries += seen;
    if (seen != expected) mismatch(name + ": " + seen + " entries, expected " + expected);
  }

  private void getKeys(KafkaStreams streams, int i, Map<String, Long> truth, boolean filled) {
    String name = Topologies.memoryStoreName(i);
    ReadOnlyKeyValueStore<String, Long> store = keyValueStore(streams, name);
    for (Map.Entry<String, Long> expected : truth.entrySet()) {
      pointReads++;
      Long value = store.get(expected.getKey());
      if (!same(value, expected.getValue(), filled)) {
        mismatch(name + " get " + expected.getKey() + " -> " + value);
      }
    }
  }

  private void fetchWindows(KafkaStreams streams, int i, Map<String, Long> truth, boolean filled) {
    String name = Topologies.memoryStoreName(i);
    ReadOnlyWindowStore<String, Long> store = windowStore(streams, name);
    for (Map.Entry<String, Long> expected : truth.entrySet()) {
      pointReads++;
      String key = expected.getKey();
      int tab = key.indexOf('\t');
      Long value = store.fetch(key.substring(0, tab), Long.parseLong(key.substring(tab + 1)));
      if (!same(value, expected.getValue(), filled)) mismatch(name + " fetch " + key + " -> " + value);
    }
  }

  private static boolean same(Long value, Long expected, boolean filled) {
    return filled ? expected.equals(value) : value == null;
  }

  private static ReadOnlyKeyValueStore<String, Long> keyValueStore(KafkaStreams streams, String name) {
    return streams.store(StoreQueryParameters.fromNameAndType(name, QueryableStoreTypes.keyValueStore()));
  }

  private static ReadOnlyWindowStore<String, Long> windowStore(KafkaStreams streams, String name) {
    return streams.store(StoreQueryParameters.fromNameAndType(name, QueryableStoreTypes.windowStore()));
  }

  /**
   * A truth file as a map: {@code key\tcount[\tsum]} lines (the counts: the first column the
   * key, the second the count) or, {@code windowed}, {@code key\twindowStart\tcount} lines (the
   * first two columns the key). An empty path is an empty truth.
   */
  private static Map<String, Long> readTruth(String file, boolean windowed) throws IOException {
    Map<String, Long> truth = new HashMap<>();
    if (file.isEmpty()) return truth;
    for (String line : Files.readAllLines(Path.of(file), StandardCharsets.UTF_8)) {
      if (line.isEmpty()) continue;
      String[] cells = line.split("\t");
      truth.put(windowed ? cells[0] + "\t" + cells[1] : cells[0], Long.parseLong(cells[windowed ? 2 : 1]));
    }
    return truth;
  }

  /** A /proc/self/status line's value, in MiB. */
  private static double status(String field) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.UTF_8)) {
      if (line.startsWith(field)) return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
    }
    return -1;
  }
}

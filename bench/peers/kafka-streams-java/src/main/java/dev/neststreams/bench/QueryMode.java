package dev.neststreams.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.StateQueryRequest;
import org.apache.kafka.streams.query.StateQueryResult;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;

/**
 * The {@code query} mode, once the aggregate is complete and the instance RUNNING:
 *
 * <ol>
 *   <li>checks {@code store.get} of every key of the keys file against the truth (also the
 *       warm-up), and IQv2 for the first 5,000;
 *   <li>times the same gets again, one by one, with {@link System#nanoTime()}: {@code
 *       streams.store(...).get}, then IQv2 over the first 20,000 ({@code streams.query} with a {@link KeyQuery}, every
 *       local partition asked);
 *   <li>serves {@code GET /stats/{userId}} (store.get + Jackson) with the JDK's {@link
 *       HttpServer} on {@code --http-port} until {@code GET /quit}.
 * </ol>
 *
 * Prints one JSON result line with the figures under {@code details}; exits 2 on a wrong answer.
 */
final class QueryMode {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final int IQV2_CHECKED = 5_000;
  /** IQv2 is timed over the first keys only (its gets are slower). */
  static final int IQV2_TIMED = 20_000;

  private QueryMode() {}

  static int run(KafkaStreams streams, PeerArgs args, long records, double seconds)
      throws IOException, InterruptedException {
    Map<String, Stats> truth = new HashMap<>();
    for (String line : Files.readAllLines(Path.of(args.truthFile()), StandardCharsets.UTF_8)) {
      if (line.isEmpty()) continue;
      String[] cells = line.split("\t");
      truth.put(cells[0], new Stats(Long.parseLong(cells[1]), Long.parseLong(cells[2])));
    }
    List<String> keys =
        Files.readAllLines(Path.of(args.keysFile()), StandardCharsets.UTF_8).stream()
            .filter(line -> !line.isEmpty())
            .toList();
    ReadOnlyKeyValueStore<String, Stats> store =
        streams.store(
            StoreQueryParameters.fromNameAndType(
                Topologies.STATS_STORE, QueryableStoreTypes.keyValueStore()));

    Check check = new Check(truth);
    for (String key : keys) check.verify(key, store.get(key));
    int iqv2Checked = Math.min(keys.size(), IQV2_CHECKED);
    for (int i = 0; i < iqv2Checked; i++) check.verify(keys.get(i), iqv2(streams, keys.get(i)));

    long[] getNs = new long[keys.size()];
    long sink = 0;
    long loopStart = System.nanoTime();
    for (int i = 0; i < getNs.length; i++) {
      long t0 = System.nanoTime();
      Stats value = store.get(keys.get(i));
      getNs[i] = System.nanoTime() - t0;
      sink += value == null ? 0 : value.count();
    }
    double getSeconds = (System.nanoTime() - loopStart) / 1e9;
    long[] iqv2Ns = new long[Math.min(keys.size(), IQV2_TIMED)];
    loopStart = System.nanoTime();
    for (int i = 0; i < iqv2Ns.length; i++) {
      long t0 = System.nanoTime();
      Stats value = iqv2(streams, keys.get(i));
      iqv2Ns[i] = System.nanoTime() - t0;
      sink += value == null ? 0 : value.count();
    }
    double iqv2Seconds = (System.nanoTime() - loopStart) / 1e9;
    long expectedSink = 0;
    for (int i = 0; i < keys.size(); i++) {
      long count = truth.containsKey(keys.get(i)) ? truth.get(keys.get(i)).count() : 0;
      expectedSink += i < iqv2Ns.length ? 2 * count : count;
    }
    if (sink != expectedSink) check.fail("timed gets: sum of counts " + sink + ", expected " + expectedSink);

    long served = serve(store, args.httpPort());
    double peakRssMb = BenchPeer.peakRssMb();
    StringBuilder json = new StringBuilder();
    json.append("{\"system\":\"kafka-streams-java\",\"mode\":\"query\"")
        .append(",\"records\":").append(records)
        .append(",\"seconds\":").append(seconds)
        .append(",\"peakRssMb\":").append(peakRssMb)
        .append(",\"storeEntries\":").append(keys.size())
        .append(",\"mismatches\":").append(check.mismatches);
    if (check.first != null) {
      json.append(",\"firstMismatch\":\"").append(check.first.replace("\"", "'")).append('"');
    }
    json.append(",\"details\":{\"gets\":").append(keys.size())
        .append(",\"getP50Ms\":").append(quantileMs(getNs, 0.5))
        .append(",\"getP99Ms\":").append(quantileMs(getNs, 0.99))
        .append(",\"getsPerSec\":").append(keys.size() / getSeconds)
        .append(",\"iqv2P50Ms\":").append(quantileMs(iqv2Ns, 0.5))
        .append(",\"iqv2P99Ms\":").append(quantileMs(iqv2Ns, 0.99))
        .append(",\"iqv2PerSec\":").append(iqv2Ns.length / iqv2Seconds)
        .append(",\"iqv2Timed\":").append(iqv2Ns.length)
        .append(",\"iqv2Checked\":").append(iqv2Checked)
        .append(",\"httpServed\":").append(served)
        .append("}}");
    System.out.println(json);
    System.out.flush();
    return check.mismatches == 0 ? 0 : 2;
  }

  /** IQv2: a key query over every local partition; the first non-null answer. */
  private static Stats iqv2(KafkaStreams streams, String key) {
    StateQueryResult<Object> result =
        streams.query(StateQueryRequest.inStore(Topologies.STATS_STORE).withQuery(KeyQuery.withKey(key)));
    for (QueryResult<Object> partition : result.getPartitionResults().values()) {
      if (partition.isSuccess() && partition.getResult() != null) {
        Object value = partition.getResult();
        return value instanceof ValueAndTimestamp<?> vat ? (Stats) vat.value() : (Stats) value;
      }
    }
    return null;
  }

  /** Serves GET /stats/{userId} until GET /quit; returns the number of stats requests. */
  private static long serve(ReadOnlyKeyValueStore<String, Stats> store, int port)
      throws IOException, InterruptedException {
    // Without TCP_NODELAY the JDK server writes headers and body apart and Nagle's algorithm
    // meets the client's delayed ACK: ~40 ms per request. Read when the server classes load.
    System.setProperty("sun.net.httpserver.nodelay", "true");
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 128);
    ExecutorService pool = Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors());
    server.setExecutor(pool);
    CountDownLatch quit = new CountDownLatch(1);
    AtomicLong served = new AtomicLong();
    server.createContext(
        "/stats/",
        exchange -> {
          String user =
              URLDecoder.decode(
                  exchange.getRequestURI().getRawPath().substring("/stats/".length()),
                  StandardCharsets.UTF_8);
          served.incrementAndGet();
          Stats value = store.get(user);
          if (value == null) {
            exchange.sendResponseHeaders(404, -1);
            exchange.close();
            return;
          }
          byte[] body = MAPPER.writeValueAsBytes(value);
          exchange.getResponseHeaders().set("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    server.createContext(
        "/quit",
        exchange -> {
          byte[] body = "bye".getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(200, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
          quit.countDown();
        });
    server.start();
    quit.await();
    server.stop(0);
    pool.shutdownNow();
    return served.get();
  }

  /** Nearest-rank quantile of nanosecond durations, in milliseconds (as the harness's). */
  static double quantileMs(long[] durationsNs, double q) {
    long[] sorted = durationsNs.clone();
    Arrays.sort(sorted);
    int index = Math.max(0, (int) Math.ceil(q * sorted.length) - 1);
    return sorted[index] / 1e6;
  }

  /** Counts answers that differ from the truth. */
  private static final class Check {
    private final Map<String, Stats> truth;
    long mismatches;
    String first;

    Check(Map<String, Stats> truth) {
      this.truth = truth;
    }

    void verify(String key, Stats value) {
      Stats expected = truth.get(key);
      if (expected == null || !expected.equals(value)) {
        fail(key + ": got " + value + ", expected " + expected);
      }
    }

    void fail(String problem) {
      mismatches++;
      if (first == null) first = problem;
    }
  }
}

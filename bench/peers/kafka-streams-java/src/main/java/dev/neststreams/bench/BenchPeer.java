package dev.neststreams.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.apache.kafka.common.TopicPartition;

/**
 * Runs one benchmark topology with Java Kafka Streams and prints one JSON result line on
 * stdout: {@code {"system":"kafka-streams-java","eventsPerSec":..,"seconds":..,"peakRssMb":..}}.
 *
 * <p>Modes: {@code aggregate} and {@code windowed} time from {@code start()} until the group has
 * committed every input record; {@code restore} (the aggregate topology) times {@code start()}
 * until RUNNING. {@code query} ({@link QueryMode}) and {@code memory} ({@link MemoryMode}) time
 * the aggregate or the N count stores like {@code aggregate}, then measure reads or memory. The
 * first three modes then read their store through interactive queries, writes it to
 * {@code --dump-file} and compares it with {@code --truth-file}; a mismatch exits with 2.
 * {@code serve} ({@link ServeMode}) runs the example application's topology and HTTP answers
 * until stopped, for the tests that compare both applications.
 */
public final class BenchPeer {
  private BenchPeer() {}

  public static void main(String[] argv) throws Exception {
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    PeerArgs args = PeerArgs.parse(argv);
    if (args.mode().equals("serve")) {
      ServeMode.run(args);
      return;
    }
    Topology topology =
        switch (args.mode()) {
          case "aggregate", "restore", "query" -> Topologies.aggregate(args.inputTopic());
          case "memory" -> Topologies.memoryCounts(args.inputTopic(), args.stores());
          case "windowed" -> Topologies.windowed(args.inputTopic());
          default -> throw new IllegalArgumentException("unknown mode " + args.mode());
        };

    Properties props = args.streamsProperties();
    props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, Long.toString(args.cacheMaxBytes()));
    if (args.rocksdb().equals("bounded")) {
      BoundedMemoryRocksDBConfig.size(args.rocksdbMemoryMb());
      props.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, BoundedMemoryRocksDBConfig.class);
    } else if (!args.rocksdb().equals("default")) {
      throw new IllegalArgumentException("--rocksdb must be default or bounded, got " + args.rocksdb());
    }

    Properties adminProps = new Properties();
    adminProps.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, args.bootstrapServers());
    try (Admin admin = Admin.create(adminProps)) {
      Completion completion = new Completion(admin, args.applicationId(), args.inputTopic());
      KafkaStreams streams = new KafkaStreams(topology, props);
      CountDownLatch running = new CountDownLatch(1);
      AtomicReference<Throwable> failure = new AtomicReference<>();
      streams.setStateListener(
          (now, before) -> {
            if (now == KafkaStreams.State.RUNNING) running.countDown();
          });
      AtomicLong restored = new AtomicLong();
      streams.setGlobalStateRestoreListener(
          new StateRestoreListener() {
            @Override
            public void onRestoreStart(TopicPartition partition, String store, long start, long end) {}

            @Override
            public void onBatchRestored(TopicPartition partition, String store, long end, long count) {}

            @Override
            public void onRestoreEnd(TopicPartition partition, String store, long total) {
              restored.addAndGet(total);
            }
          });
      streams.setUncaughtExceptionHandler(
          error -> {
            failure.compareAndSet(null, error);
            running.countDown();
            return org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler
                .StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
          });

      long deadline = System.currentTimeMillis() + args.timeoutMs();
      long started = System.nanoTime();
      streams.start();
      if (!running.await(args.timeoutMs(), TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException("not RUNNING within " + args.timeoutMs() + " ms");
      }
      double runningSeconds = (System.nanoTime() - started) / 1e9;
      long restoredAtRunning = restored.get();
      if (!args.mode().equals("restore")) {
        while (!completion.done()) {
          if (failure.get() != null) break;
          if (System.currentTimeMillis() > deadline) {
            throw new IllegalStateException("input not committed within " + args.timeoutMs() + " ms");
          }
          Thread.sleep(100);
        }
      }
      double seconds = (System.nanoTime() - started) / 1e9;
      double peakRssMb = peakRssMb();
      if (failure.get() != null) {
        streams.close(Duration.ofSeconds(30));
        throw new IllegalStateException("processing failed", failure.get());
      }
      // Interactive queries need RUNNING (a commit never leaves it on one instance).
      while (streams.state() != KafkaStreams.State.RUNNING) Thread.sleep(20);
      if (args.mode().equals("query") || args.mode().equals("memory")) {
        int exit =
            args.mode().equals("query")
                ? QueryMode.run(streams, args, completion.records(), round(seconds))
                : MemoryMode.run(streams, args, completion.records(), round(seconds));
        streams.close(
            CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                .withTimeout(Duration.ofSeconds(60)));
        System.exit(exit);
      }
      StoreCheck.Outcome outcome =
          StoreCheck.check(
              streams,
              args.mode().equals("windowed") ? "windowed" : "aggregate",
              Path.of(args.truthFile()),
              Path.of(args.dumpFile()),
              args.check().equals("at-least"));
      // Leave the group: Kafka Streams' default close stays in it, and a restart (the restore
      // scenario) would then wait session.timeout.ms (45 s) for this member to expire.
      streams.close(
          CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
              .withTimeout(Duration.ofSeconds(60)));

      long records = args.mode().equals("restore") ? restored.get() : completion.records();
      StringBuilder json = new StringBuilder();
      json.append("{\"system\":\"kafka-streams-java\"")
          .append(",\"mode\":\"").append(args.mode()).append('"')
          .append(",\"guarantee\":\"").append(args.guarantee()).append('"')
          .append(",\"records\":").append(records)
          .append(",\"seconds\":").append(round(seconds));
      if (records > 0) json.append(",\"eventsPerSec\":").append(Math.round(records / seconds));
      json.append(",\"peakRssMb\":").append(round(peakRssMb))
          .append(",\"details\":{\"runningSeconds\":").append(round(runningSeconds))
          .append(",\"restoredAtRunning\":").append(restoredAtRunning).append('}')
          .append(",\"storeEntries\":").append(outcome.entries())
          .append(",\"mismatches\":").append(outcome.mismatches());
      if (outcome.firstMismatch() != null) {
        json.append(",\"firstMismatch\":\"").append(outcome.firstMismatch().replace("\"", "'").replace("\t", " ")).append('"');
      }
      json.append('}');
      System.out.println(json);
      System.out.flush();
      System.exit(outcome.mismatches() == 0 ? 0 : 2);
    }
  }

  /** The process's peak resident set size (VmHWM), in MiB. */
  static double peakRssMb() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.UTF_8)) {
        if (line.startsWith("VmHWM:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
        }
      }
    } catch (IOException e) {
      // not on Linux: no figure
    }
    return -1;
  }

  private static double round(double value) {
    return Math.round(value * 1000) / 1000.0;
  }
}

package dev.neststreams.bench;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The peer's parameters, from {@code --name value} arguments, else from {@code BENCH_NAME}
 * environment variables (upper case, dashes as underscores).
 */
record PeerArgs(
    String mode,
    String bootstrapServers,
    String inputTopic,
    String applicationId,
    String stateDir,
    String guarantee,
    long commitIntervalMs,
    long cacheMaxBytes,
    String truthFile,
    String windowedTruthFile,
    String dumpFile,
    long timeoutMs,
    String keysFile,
    int httpPort,
    int stores,
    String rocksdb,
    int rocksdbMemoryMb,
    String check,
    String applicationServer,
    int standbyReplicas,
    int sessionTimeoutMs,
    int heartbeatIntervalMs) {

  /**
   * The Kafka Streams settings every mode takes from these arguments: application id, brokers,
   * state dir, guarantee and commit interval.
   */
  Properties streamsProperties() {
    Properties props = new Properties();
    props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
    props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir);
    props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, guarantee);
    props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, Long.toString(commitIntervalMs));
    return props;
  }

  static PeerArgs parse(String[] argv) {
    Map<String, String> given = new HashMap<>();
    for (int i = 0; i + 1 < argv.length; i += 2) {
      if (!argv[i].startsWith("--")) {
        throw new IllegalArgumentException("expected --name value pairs, got " + argv[i]);
      }
      given.put(argv[i].substring(2), argv[i + 1]);
    }
    if (argv.length % 2 != 0) {
      throw new IllegalArgumentException("argument " + argv[argv.length - 1] + " has no value");
    }
    String mode = value(given, "mode", "aggregate");
    // The serve mode checks nothing against a truth: it runs until stopped.
    boolean serve = mode.equals("serve");
    return new PeerArgs(
        mode,
        value(given, "bootstrap-servers", null),
        value(given, "input-topic", null),
        value(given, "application-id", null),
        value(given, "state-dir", null),
        value(given, "guarantee", "at_least_once"),
        Long.parseLong(value(given, "commit-interval-ms", "1000")),
        Long.parseLong(value(given, "cache-max-bytes", "10485760")),
        value(given, "truth-file", serve ? "" : null),
        // The memory mode's windowed truth (user, window start, count).
        value(given, "windowed-truth-file", ""),
        value(given, "dump-file", ""),
        Long.parseLong(value(given, "timeout-ms", "600000")),
        value(given, "keys-file", ""),
        Integer.parseInt(value(given, "http-port", "0")),
        Integer.parseInt(value(given, "stores", "1")),
        value(given, "rocksdb", "default"),
        Integer.parseInt(value(given, "rocksdb-memory-mb", "64")),
        value(given, "check", "exact"),
        // The serve mode's: its advertised host:port, standbys, and group timings (the
        // example application's defaults: a 10 s session, a heartbeat every second).
        value(given, "application-server", ""),
        Integer.parseInt(value(given, "standby-replicas", "0")),
        Integer.parseInt(value(given, "session-timeout-ms", "10000")),
        Integer.parseInt(value(given, "heartbeat-interval-ms", "1000")));
  }

  private static String value(Map<String, String> given, String name, String fallback) {
    String value = given.get(name);
    if (value == null) {
      value = System.getenv("BENCH_" + name.toUpperCase().replace('-', '_'));
    }
    if (value == null) value = fallback;
    if (value == null) {
      throw new IllegalArgumentException(
          "missing --" + name + " (or BENCH_" + name.toUpperCase().replace('-', '_') + ")");
    }
    return value;
  }
}

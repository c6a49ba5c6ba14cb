package dev.neststreams.bench;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.ThreadMetadata;
import org.apache.kafka.streams.errors.LogAndContinueExceptionHandler;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.apache.kafka.streams.state.HostInfo;

/**
 * The {@code serve} mode: the example application (apps/order-stats) written as a Kafka Streams
 * user writes it, run until SIGTERM, for tests that run the same scenario against both (the
 * cluster-fault suite). The same topology ({@link Topologies#orderStats}), settings given as
 * the example application's environment gives them (guarantee, commit interval, standbys,
 * {@code application.server}, a 10 s session with a heartbeat every second, records that do not
 * parse logged and skipped), and the same HTTP answers on {@code --http-port}: see {@link
 * KeyReads}, {@link RangeReads}, {@link Operations}.
 *
 * <p>Prints {@code STATE <state>} on every state change. An uncaught error in a stream thread
 * replaces the thread when it is a retriable Kafka error (a transient fault that outlasted
 * {@code task.timeout.ms}), and stops the client otherwise, as the example application's
 * default handler does; the client in ERROR exits the process with 1. Under exactly-once it
 * prints each thread's transactional id once (KIP-447: one producer per thread).
 */
final class ServeMode {
  private ServeMode() {}

  static void run(PeerArgs args) throws Exception {
    HostInfo self = HostInfo.buildFromEndpoint(args.applicationServer());
    Properties props = args.streamsProperties();
    props.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, Integer.toString(args.standbyReplicas()));
    props.put(StreamsConfig.APPLICATION_SERVER_CONFIG, args.applicationServer());
    props.put(
        StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG,
        LogAndContinueExceptionHandler.class);
    props.put(
        StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG),
        Integer.toString(args.sessionTimeoutMs()));
    props.put(
        StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG),
        Integer.toString(args.heartbeatIntervalMs()));

    int partitions = partitionsOf(args.bootstrapServers(), args.inputTopic());
    KafkaStreams streams = new KafkaStreams(Topologies.orderStats(args.inputTopic()), props);
    Operations operations = new Operations(streams, args.inputTopic());
    boolean exactlyOnce = !args.guarantee().equals(StreamsConfig.AT_LEAST_ONCE);
    Set<String> transactionalIds = ConcurrentHashMap.newKeySet();
    streams.setStateListener(
        (now, before) -> {
          log("STATE " + now);
          if (now == KafkaStreams.State.RUNNING) {
            operations.started.set(true);
            if (exactlyOnce) logTransactionalIds(streams, transactionalIds);
          }
          if (now == KafkaStreams.State.ERROR) {
            // Not from the stream thread that reports the state: exiting runs the shutdown hook.
            new Thread(() -> System.exit(1), "exit-on-error").start();
          }
        });
    streams.setUncaughtExceptionHandler(
        error -> {
          for (Throwable e = error; e != null; e = e.getCause()) {
            if (e instanceof RetriableException) {
              log("stream thread failed on a retriable error, replacing it: " + error);
              return StreamThreadExceptionResponse.REPLACE_THREAD;
            }
          }
          log("stream thread failed, stopping the client: " + error);
          return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });

    PeerClient peers = new PeerClient(args.applicationServer(), Duration.ofSeconds(5));
    StatsHttpServer server =
        StatsHttpServer.start(
            args.applicationServer(),
            args.httpPort(),
            new KeyReads(streams, self, peers, new LocalLags(streams)),
            new RangeReads(streams, self, peers, args.inputTopic(), partitions),
            operations);
    CountDownLatch closed = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  server.stop();
                  streams.close(
                      CloseOptions.groupMembershipOperation(
                              CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                          .withTimeout(Duration.ofSeconds(30)));
                  closed.countDown();
                },
                "serve-shutdown"));
    streams.start();
    log("serving on " + args.httpPort() + " as " + args.applicationServer());
    closed.await();
  }

  /** The input topic's partition count (the topic exists before the instances start). */
  private static int partitionsOf(String bootstrapServers, String topic) throws Exception {
    Properties props = new Properties();
    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    try (Admin admin = Admin.create(props)) {
      return admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions().size();
    }
  }

  /**
   * Each thread's transactional id, once: {@code <application.id>-<process id>-<thread index>}
   * (Kafka Streams' exactly-once v2), from its thread name {@code <client id>-StreamThread-<n>}
   * with the default client id {@code <application.id>-<process id>}.
   */
  private static void logTransactionalIds(KafkaStreams streams, Set<String> logged) {
    for (ThreadMetadata thread : streams.metadataForLocalThreads()) {
      String name = thread.threadName();
      int at = name.lastIndexOf("-StreamThread-");
      if (at < 0) continue;
      String id = name.substring(0, at) + "-" + name.substring(at + "-StreamThread-".length());
      if (logged.add(id)) log("one transactional producer for the thread's tasks (KIP-447), " + id);
    }
  }

  static void log(String line) {
    System.out.println(Instant.now() + " [serve] " + line);
    System.out.flush();
  }
}

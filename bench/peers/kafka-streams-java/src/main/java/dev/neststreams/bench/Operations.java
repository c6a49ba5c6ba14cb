package dev.neststreams.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsMetadata;

/**
 * The operations endpoints of the {@code serve} mode, in the example application's shapes (so
 * the tests that read them read both): {@code GET /health/live|ready|started} and {@code GET
 * /streams/metadata}.
 */
final class Operations {
  private final KafkaStreams streams;
  private final String inputTopic;
  /** Set once the client was RUNNING: readiness then holds during rebalances too. */
  final AtomicBoolean started = new AtomicBoolean();

  Operations(KafkaStreams streams, String inputTopic) {
    this.streams = streams;
    this.inputTopic = inputTopic;
  }

  /**
   * {@code live}: 200 unless the client failed or stopped; {@code ready}: 200 while RUNNING, or
   * REBALANCING once it was RUNNING; {@code started}: 200 once it was RUNNING. 503 otherwise.
   * Each body names the client's state under {@code details.streams.state}.
   */
  Answer health(String probe) {
    KafkaStreams.State state = streams.state();
    boolean up =
        switch (probe) {
          case "live" -> state != KafkaStreams.State.ERROR && state != KafkaStreams.State.NOT_RUNNING;
          case "ready" ->
              state == KafkaStreams.State.RUNNING
                  || (state == KafkaStreams.State.REBALANCING && started.get());
          case "started" -> started.get();
          default -> false;
        };
    if (!List.of("live", "ready", "started").contains(probe)) {
      return Answer.error(404, "Not Found", "no probe " + probe);
    }
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("status", up ? "up" : "down");
    details.put("state", state.name());
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", up ? "ok" : "error");
    body.put("details", Map.of("streams", details));
    Answer answer = Answer.json(up ? 200 : 503, body);
    return up ? answer : answer.with("Retry-After", Answer.RETRY_AFTER_SECONDS);
  }

  /**
   * The cluster as this instance sees it: {@code {state, instances: [{host, stores: {<store>:
   * {active, standby}}}], metrics: {processed, commits}}}.
   */
  Answer metadata() {
    List<Map<String, Object>> instances = new ArrayList<>();
    for (StreamsMetadata instance : streams.metadataForAllStreamsClients()) {
      Map<String, Object> stores = new LinkedHashMap<>();
      // Both stores live in every task of the one sub-topology: the same partitions.
      for (String store : List.of(Topologies.STATS_STORE, Topologies.WINDOWED_STORE)) {
        stores.put(
            store,
            Map.of(
                "active", partitionsOf(instance.topicPartitions()),
                "standby", partitionsOf(instance.standbyTopicPartitions())));
      }
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("host", instance.host() + ":" + instance.port());
      entry.put("stores", stores);
      instances.add(entry);
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("state", streams.state().name());
    body.put("instances", instances);
    body.put(
        "metrics",
        Map.of("processed", threadTotal("process-total"), "commits", threadTotal("commit-total")));
    return Answer.json(body);
  }

  private List<Integer> partitionsOf(java.util.Set<TopicPartition> partitions) {
    return partitions.stream()
        .filter(tp -> tp.topic().equals(inputTopic))
        .map(TopicPartition::partition)
        .sorted()
        .toList();
  }

  /** A stream-thread counter summed over this instance's threads. */
  private long threadTotal(String name) {
    double total = 0;
    for (Map.Entry<MetricName, ? extends Metric> metric : streams.metrics().entrySet()) {
      MetricName id = metric.getKey();
      if (id.name().equals(name) && id.group().equals("stream-thread-metrics")) {
        Object value = metric.getValue().metricValue();
        if (value instanceof Number number) total += number.doubleValue();
      }
    }
    return Math.round(total);
  }
}

package dev.neststreams.bench;

import com.fasterxml.jackson.core.type.TypeReference;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * {@code GET /stats/range?from=a&to=m} of the {@code serve} mode: the users with ids in {@code
 * [from, to]} across the whole cluster, sorted by id, as {@code [{"userId", "count", "sum"}]}.
 * The current metadata ({@code metadataForAllStreamsClients}) names each partition's active
 * owner; each owner reads its partitions' active copies ({@code GET /internal/stats-range} for
 * the others); when a partition has no owner or one does not answer, 503 with {@code
 * Retry-After}, as the example application answers (never a partial list).
 */
final class RangeReads {
  static final String INTERNAL_PATH = "/internal/stats-range";
  private static final TypeReference<List<Map<String, Object>>> ENTRIES = new TypeReference<>() {};

  private final KafkaStreams streams;
  private final HostInfo self;
  private final PeerClient peers;
  private final String inputTopic;
  private final int partitions;

  RangeReads(
      KafkaStreams streams, HostInfo self, PeerClient peers, String inputTopic, int partitions) {
    this.streams = streams;
    this.self = self;
    this.peers = peers;
    this.inputTopic = inputTopic;
    this.partitions = partitions;
  }

  /** The whole cluster's range. */
  Answer range(String from, String to) {
    KafkaStreams.State state = streams.state();
    if (!state.isRunningOrRebalancing()) {
      return Answer.unavailable("this instance's client is " + state);
    }
    Map<HostInfo, List<Integer>> owners = new LinkedHashMap<>();
    TreeSet<Integer> covered = new TreeSet<>();
    for (StreamsMetadata metadata : streams.metadataForAllStreamsClients()) {
      List<Integer> owned =
          metadata.topicPartitions().stream()
              .filter(tp -> tp.topic().equals(inputTopic))
              .map(TopicPartition::partition)
              .sorted()
              .toList();
      if (!owned.isEmpty()) owners.put(metadata.hostInfo(), owned);
      covered.addAll(owned);
    }
    if (covered.size() != partitions) {
      return Answer.unavailable("some partitions have no owner (rebalancing)");
    }
    List<Map<String, Object>> entries = new ArrayList<>();
    for (Map.Entry<HostInfo, List<Integer>> owner : owners.entrySet()) {
      List<Map<String, Object>> part =
          owner.getKey().equals(self)
              ? local(from, to, owner.getValue())
              : remote(owner.getKey(), from, to, owner.getValue());
      if (part == null) return Answer.unavailable("some partitions did not answer; retry");
      entries.addAll(part);
    }
    entries.sort(Comparator.comparing(e -> (String) e.get("userId")));
    return Answer.json(entries);
  }

  /** {@code GET /internal/stats-range}: this instance's active copies of {@code parts}. */
  Answer localPart(String from, String to, List<Integer> parts) {
    List<Map<String, Object>> entries = local(from, to, parts);
    return entries == null
        ? Answer.unavailable("an active copy of partitions " + parts + " is not queryable here")
        : Answer.json(entries);
  }

  /** Entries of this instance's active copies of {@code parts}; null when one is not queryable. */
  private List<Map<String, Object>> local(String from, String to, List<Integer> parts) {
    TreeMap<String, Stats> found = new TreeMap<>();
    try {
      for (int partition : parts) {
        ReadOnlyKeyValueStore<String, Stats> store =
            streams.store(
                StoreQueryParameters.fromNameAndType(
                        Topologies.STATS_STORE, QueryableStoreTypes.<String, Stats>keyValueStore())
                    .withPartition(partition));
        try (KeyValueIterator<String, Stats> range = store.range(from, to)) {
          while (range.hasNext()) {
            KeyValue<String, Stats> entry = range.next();
            found.put(entry.key, entry.value);
          }
        }
      }
    } catch (InvalidStateStoreException e) {
      return null;
    }
    List<Map<String, Object>> entries = new ArrayList<>();
    found.forEach(
        (userId, stats) -> {
          Map<String, Object> entry = new LinkedHashMap<>();
          entry.put("userId", userId);
          entry.put("count", stats.count());
          entry.put("sum", Answer.amount(stats.sum()));
          entries.add(entry);
        });
    return entries;
  }

  /** Another owner's part; null when it did not answer 200. */
  private List<Map<String, Object>> remote(
      HostInfo host, String from, String to, List<Integer> parts) {
    String query =
        "?from="
            + URLEncoder.encode(from, StandardCharsets.UTF_8)
            + "&to="
            + URLEncoder.encode(to, StandardCharsets.UTF_8)
            + "&partitions="
            + parts.stream().map(String::valueOf).collect(Collectors.joining(","));
    Answer answer = peers.get(host, INTERNAL_PATH + query, false);
    if (answer == null || answer.status() != 200) return null;
    try {
      return Answer.MAPPER.readValue(answer.body(), ENTRIES);
    } catch (IOException e) {
      return null;
    }
  }
}

package dev.neststreams.bench;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Tells when the application has committed every input record: the group's committed offsets
 * reach the input topic's end offsets (read once, before the application starts).
 */
final class Completion {
  private final Admin admin;
  private final String groupId;
  private final Map<TopicPartition, Long> endOffsets = new HashMap<>();

  Completion(Admin admin, String groupId, String topic)
      throws ExecutionException, InterruptedException {
    this.admin = admin;
    this.groupId = groupId;
    TopicDescription description = admin.describeTopics(java.util.List.of(topic)).allTopicNames().get().get(topic);
    Map<TopicPartition, OffsetSpec> request = new HashMap<>();
    description.partitions().forEach(p -> request.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
    admin.listOffsets(request).all().get().forEach((tp, info) -> endOffsets.put(tp, info.offset()));
  }

  /** The number of records in the input topic. */
  long records() {
    return endOffsets.values().stream().mapToLong(Long::longValue).sum();
  }

  /** Whether the group's committed offsets cover the whole input. */
  boolean done() throws ExecutionException, InterruptedException {
    Map<TopicPartition, OffsetAndMetadata> committed =
        admin.listConsumerGroupOffsets(groupId).partitionsToOffsetAndMetadata().get();
    for (Map.Entry<TopicPartition, Long> end : endOffsets.entrySet()) {
      if (end.getValue() == 0) continue;
      OffsetAndMetadata offset = committed.get(end.getKey());
      if (offset == null || offset.offset() < end.getValue()) return false;
    }
    return true;
  }
}

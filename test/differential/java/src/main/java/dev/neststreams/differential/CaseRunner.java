package dev.neststreams.differential;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;

/**
 * Runs one case: builds the scenario's topology, pipes the case's steps (records and wall-clock
 * advances) into a TopologyTestDriver whose wall clock starts at 0, then reads every record of
 * the output topics (raw bytes) and the final contents of the named stores.
 */
final class CaseRunner {
  private CaseRunner() {}

  static ObjectNode run(JsonNode input, ObjectMapper mapper) {
    ObjectNode result = mapper.createObjectNode();
    result.put("id", input.get("id").asText());
    ObjectNode outputs = result.putObject("outputs");
    ObjectNode stores = result.putObject("stores");
    Scenario scenario = Scenarios.ALL.get(input.get("scenario").asText());
    if (scenario == null) {
      result.put("error", "no Java scenario named " + input.get("scenario").asText());
      return result;
    }
    StreamsBuilder builder = new StreamsBuilder();
    scenario.build(builder);
    Topology topology = builder.build();
    Path stateDir = createStateDir();
    TopologyTestDriver driver =
        new TopologyTestDriver(topology, config(input, stateDir), Instant.ofEpochMilli(0));
    try {
      try {
        pipe(driver, input.get("steps"));
      } catch (StepFailure failure) {
        result.put("error", describe(failure.getCause()));
        result.put("errorStep", failure.step);
      }
      for (JsonNode topic : input.get("outputs")) {
        outputs.set(topic.asText(), readOutput(driver, topic.asText(), mapper));
      }
      for (JsonNode store : input.get("stores")) {
        stores.set(store.get("name").asText(), StoreDump.dump(driver, store, mapper));
      }
    } catch (RuntimeException e) {
      if (!result.has("error")) result.put("error", describe(e));
    } finally {
      try {
        driver.close();
      } catch (RuntimeException e) {
        // A driver whose processing failed may fail to close: its directory goes anyway.
      }
      deleteRecursively(stateDir.toFile());
    }
    return result;
  }

  private static Properties config(JsonNode input, Path stateDir) {
    Properties props = new Properties();
    props.put(StreamsConfig.APPLICATION_ID_CONFIG, "differential");
    props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:1234");
    props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    props.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
    props.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
    if (!input.get("caching").asBoolean()) {
      props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0L);
    }
    return props;
  }

  /** A step whose processing threw: its index in the case's steps. */
  private static final class StepFailure extends Exception {
    final int step;

    StepFailure(int step, RuntimeException cause) {
      super(cause);
      this.step = step;
    }
  }

  /**
   * Steps: {@code [topic, key, value, timestamp]} pipes a record, {@code ["@wall", ms]} advances
   * the wall clock.
   */
  private static void pipe(TopologyTestDriver driver, JsonNode steps) throws StepFailure {
    Map<String, TestInputTopic<String, String>> topics = new HashMap<>();
    for (int i = 0; i < steps.size(); i++) {
      JsonNode step = steps.get(i);
      String topic = step.get(0).asText();
      try {
        if (step.size() == 2) {
          driver.advanceWallClockTime(Duration.ofMillis(step.get(1).asLong()));
          continue;
        }
        TestInputTopic<String, String> input =
            topics.computeIfAbsent(
                topic,
                name ->
                    driver.createInputTopic(name, new StringSerializer(), new StringSerializer()));
        input.pipeInput(textOrNull(step.get(1)), textOrNull(step.get(2)), step.get(3).asLong());
      } catch (RuntimeException e) {
        throw new StepFailure(i, e);
      }
    }
  }

  private static ArrayNode readOutput(TopologyTestDriver driver, String topic, ObjectMapper mapper) {
    ArrayNode records = mapper.createArrayNode();
    TestOutputTopic<byte[], byte[]> output =
        driver.createOutputTopic(topic, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    for (TestRecord<byte[], byte[]> record : output.readRecordsToList()) {
      ObjectNode entry = records.addObject();
      entry.put("k", base64(record.key()));
      entry.put("v", base64(record.value()));
      entry.put("ts", record.timestamp());
    }
    return records;
  }

  private static Path createStateDir() {
    try {
      return Files.createTempDirectory("differential-java-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void deleteRecursively(File file) {
    File[] children = file.listFiles();
    if (children != null) for (File child : children) deleteRecursively(child);
    file.delete();
  }

  private static String base64(byte[] bytes) {
    return bytes == null ? null : Base64.getEncoder().encodeToString(bytes);
  }

  private static String textOrNull(JsonNode node) {
    return node == null || node.isNull() ? null : node.asText();
  }

  static String describe(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) root = root.getCause();
    return e.getClass().getSimpleName() + ": " + e.getMessage()
        + (root == e ? "" : " (caused by " + root.getClass().getSimpleName() + ": " + root.getMessage() + ")");
  }
}

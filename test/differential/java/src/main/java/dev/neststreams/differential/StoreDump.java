package dev.neststreams.differential;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;
import org.apache.kafka.streams.state.WindowStore;

/**
 * A store's final contents as JSON entries {@code {k, v, ts?, start?, end?}}: keys and values as
 * text ({@code String.valueOf}), in the store's own iteration order (the harness sorts them).
 */
final class StoreDump {
  private StoreDump() {}

  static ArrayNode dump(TopologyTestDriver driver, JsonNode spec, ObjectMapper mapper) {
    String name = spec.get("name").asText();
    ArrayNode entries = mapper.createArrayNode();
    switch (spec.get("kind").asText()) {
      case "kv" -> dumpKeyValue(driver, name, entries);
      case "window" -> dumpWindow(driver, name, entries);
      case "session" -> dumpSession(driver, name, spec.get("keys"), entries);
      default -> throw new IllegalArgumentException("unknown store kind in " + spec);
    }
    return entries;
  }

  private static void dumpKeyValue(TopologyTestDriver driver, String name, ArrayNode entries) {
    KeyValueStore<Object, ValueAndTimestamp<Object>> timestamped =
        driver.getTimestampedKeyValueStore(name);
    if (timestamped != null) {
      try (KeyValueIterator<Object, ValueAndTimestamp<Object>> it = timestamped.all()) {
        it.forEachRemaining(kv -> entry(entries, kv.key, kv.value.value()).put("ts", kv.value.timestamp()));
      }
      return;
    }
    KeyValueStore<Object, Object> plain = driver.getKeyValueStore(name);
    if (plain == null) throw new IllegalArgumentException("no key-value store named " + name);
    try (KeyValueIterator<Object, Object> it = plain.all()) {
      it.forEachRemaining(kv -> entry(entries, kv.key, kv.value));
    }
  }

  private static void dumpWindow(TopologyTestDriver driver, String name, ArrayNode entries) {
    WindowStore<Object, ValueAndTimestamp<Object>> timestamped =
        driver.getTimestampedWindowStore(name);
    if (timestamped != null) {
      try (KeyValueIterator<Windowed<Object>, ValueAndTimestamp<Object>> it = timestamped.all()) {
        it.forEachRemaining(
            kv -> windowed(entries, kv.key, kv.value.value()).put("ts", kv.value.timestamp()));
      }
      return;
    }
    WindowStore<Object, Object> plain = driver.getWindowStore(name);
    if (plain == null) throw new IllegalArgumentException("no window store named " + name);
    try (KeyValueIterator<Windowed<Object>, Object> it = plain.all()) {
      it.forEachRemaining(kv -> windowed(entries, kv.key, kv.value));
    }
  }

  private static void dumpSession(
      TopologyTestDriver driver, String name, JsonNode keys, ArrayNode entries) {
    SessionStore<Object, Object> store = driver.getSessionStore(name);
    if (store == null) throw new IllegalArgumentException("no session store named " + name);
    for (JsonNode key : keys) {
      try (KeyValueIterator<Windowed<Object>, Object> it = store.fetch(key.asText())) {
        while (it.hasNext()) {
          KeyValue<Windowed<Object>, Object> kv = it.next();
          windowed(entries, kv.key, kv.value);
        }
      }
    }
  }

  private static ObjectNode windowed(ArrayNode entries, Windowed<Object> key, Object value) {
    ObjectNode entry = entry(entries, key.key(), value);
    entry.put("start", key.window().start());
    entry.put("end", key.window().end());
    return entry;
  }

  private static ObjectNode entry(ArrayNode entries, Object key, Object value) {
    ObjectNode entry = entries.addObject();
    entry.put("k", String.valueOf(key));
    entry.put("v", value == null ? null : String.valueOf(value));
    return entry;
  }
}

package dev.neststreams.bench;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

/** JSON serdes through Jackson, the usual choice of a Kafka Streams application. */
final class Json {
  private static final ObjectMapper MAPPER =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  private Json() {}

  static <T> Serde<T> serde(Class<T> type) {
    Serializer<T> serializer =
        (topic, value) -> {
          if (value == null) return null;
          try {
            return MAPPER.writeValueAsBytes(value);
          } catch (IOException e) {
            throw new SerializationException(e);
          }
        };
    Deserializer<T> deserializer =
        (topic, bytes) -> {
          if (bytes == null) return null;
          try {
            return MAPPER.readValue(bytes, type);
          } catch (IOException e) {
            throw new SerializationException(e);
          }
        };
    return Serdes.serdeFrom(serializer, deserializer);
  }
}

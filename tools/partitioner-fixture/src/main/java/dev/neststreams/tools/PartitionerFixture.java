package dev.neststreams.tools;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.internals.AppInfoParser;
import org.apache.kafka.common.utils.Utils;

/**
 * Prints, as JSON on stdout, the murmur2 hash and the partition of a fixed list of string keys,
 * computed by Kafka's own Java code: key bytes from {@link StringSerializer} (UTF-8), hash from
 * {@link Utils#murmur2}, partition from {@code Utils.toPositive(murmur2) % numPartitions}, checked
 * against {@link BuiltInPartitioner#partitionForKey} (what the producer uses for keyed records).
 *
 * <p>The key list is deterministic, so the output only changes when Kafka's algorithm does.
 */
public final class PartitionerFixture {
  private static final int[] PARTITION_COUNTS = {1, 2, 3, 6, 12, 100};
  private static final String ALPHABET =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_";

  public static void main(String[] args) {
    PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    StringSerializer serializer = new StringSerializer();
    out.print("{\"generatedBy\": ");
    out.print(json("org.apache.kafka:kafka-clients " + AppInfoParser.getVersion()
        + " (StringSerializer, Utils.murmur2, Utils.toPositive, BuiltInPartitioner.partitionForKey)"
        + " via tools/partitioner-fixture/generate.sh"));
    out.print(",\n\"cases\": [\n");
    List<String> keys = keys();
    for (int i = 0; i < keys.size(); i++) {
      String key = keys.get(i);
      byte[] bytes = serializer.serialize("fixture", key);
      int hash = Utils.murmur2(bytes);
      StringBuilder partitions = new StringBuilder();
      for (int n : PARTITION_COUNTS) {
        int partition = Utils.toPositive(hash) % n;
        int builtIn = BuiltInPartitioner.partitionForKey(bytes, n);
        if (partition != builtIn) {
          throw new IllegalStateException("toPositive(murmur2) % " + n + " = " + partition
              + " but BuiltInPartitioner.partitionForKey = " + builtIn + " for " + json(key));
        }
        partitions.append(partitions.length() == 0 ? "" : ",")
            .append('"').append(n).append("\":").append(partition);
      }
      out.print("  {\"key\": " + json(key) + ", \"keyHex\": \"" + hex(bytes)
          + "\", \"murmur2\": " + hash + ", \"partitions\": {" + partitions + "}}");
      out.print(i + 1 < keys.size() ? ",\n" : "\n");
    }
    out.print("]}\n");
    out.flush();
  }

  /** The keys, in a fixed order, without duplicates. */
  private static List<String> keys() {
    Set<String> keys = new LinkedHashSet<>();
    // Plain ASCII, including JSON-escaped characters and control characters.
    keys.addAll(List.of("", " ", "a", "ab", "abc", "abcd", "abcde", "0", "1", "42", "-1", "key",
        "hello", "Hello, World!", "null", "The quick brown fox jumps over the lazy dog",
        "quote\"and\\backslash", "tab\tnewline\ncr\r", "\u0000nul", "del\u007f", "~!@#$%^&*()"));
    // Unicode: 2-, 3- and 4-byte UTF-8 sequences, combining marks, right-to-left scripts.
    keys.addAll(List.of("ünïcødé-ключ-鍵", "é", "ß", "Ω", "日本語", "한국어", "עברית",
        "العربية", "naïve café", "e\u0301", "Ünïcödé-ÄÖÜ-äöü", "\u00ff", "\uffff"));
    // Emoji: surrogate pairs, ZWJ sequences, flags, variation selectors.
    keys.addAll(List.of("😀", "🔑", "key-🔑", "👨‍👩‍👧‍👦", "🇺🇦", "❤️", "🏳️‍🌈", "𝄞",
        "order-😀-42"));
    // Lone surrogates: not valid UTF-16, StringSerializer (String.getBytes) encodes each as '?'.
    keys.addAll(List.of("\ud800", "a\udc00b", "lone-\udbff"));
    for (int i = 0; i < 200; i++) {
      keys.add("user-" + i);
    }
    for (int length = 1; length <= 300; length++) {
      keys.add(repeatToLength(ALPHABET, length));
    }
    // Bytes >= 0x80 (negative as Java bytes) at every offset within a 4-byte block and the tail,
    // and UTF-8 byte lengths of every value mod 4.
    for (int prefix = 0; prefix < 8; prefix++) {
      keys.add("a".repeat(prefix) + "\u00ff");
      keys.add("a".repeat(prefix) + "\u0080z");
    }
    for (int count = 1; count <= 8; count++) {
      keys.add("é".repeat(count));
      keys.add("鍵".repeat(count));
    }
    for (int count = 1; count <= 4; count++) {
      keys.add("😀".repeat(count));
    }
    StringBuilder latin1 = new StringBuilder();
    for (char c = 0x80; c <= 0xff; c++) {
      latin1.append(c);
    }
    keys.add(latin1.toString());
    keys.add(repeatToLength("ünïcødé-ключ-鍵-😀-", 300));
    keys.add(repeatToLength(ALPHABET, 1024));
    return new ArrayList<>(keys);
  }

  private static String repeatToLength(String unit, int length) {
    return unit.repeat(length / unit.length() + 1).substring(0, length);
  }

  private static String hex(byte[] bytes) {
    StringBuilder s = new StringBuilder(bytes.length * 2);
    for (byte b : bytes) {
      s.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
    }
    return s.toString();
  }

  /** A JSON string literal; lone surrogates and control characters as \\u escapes. */
  private static String json(String s) {
    StringBuilder out = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean pairedHigh = Character.isHighSurrogate(c) && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1));
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (pairedHigh) {
        out.append(c).append(s.charAt(++i));
      } else if (c < 0x20 || c == 0x7f || Character.isSurrogate(c)) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.append('"').toString();
  }
}

package dev.neststreams.bench;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One HTTP answer of the {@code serve} mode: status, headers and a JSON body, built by the
 * readers and written by {@link StatsHttpServer}. The bodies are the example application's
 * (apps/order-stats): {@code {"count", "sum"}} with the sum in currency units (2 decimals), and
 * {@code {"statusCode", "error", "message"}} for errors.
 */
record Answer(int status, Map<String, String> headers, byte[] body) {
  static final ObjectMapper MAPPER =
      new ObjectMapper()
          .configure(SerializationFeature.WRITE_BIGDECIMAL_AS_PLAIN, true)
          // Sums relayed from another instance stay the decimals they were.
          .configure(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS, true);
  /** Seconds a client waits before it asks again (the example application's `Retry-After`). */
  static final String RETRY_AFTER_SECONDS = "2";

  /** 200 with {@code value} as JSON. */
  static Answer json(Object value) {
    return json(200, value);
  }

  static Answer json(int status, Object value) {
    try {
      Map<String, String> headers = new LinkedHashMap<>();
      headers.put("Content-Type", "application/json; charset=utf-8");
      return new Answer(status, headers, MAPPER.writeValueAsBytes(value));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A user's stats as {@code GET /stats/:userId} answers them. */
  static Answer stats(Stats value) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("count", value.count());
    body.put("sum", amount(value.sum()));
    return json(body);
  }

  /** 404 for a user the copy does not hold. */
  static Answer notFound(String userId) {
    return error(404, "Not Found", "no stats for user '" + userId + "'");
  }

  /** 503 with {@code Retry-After}: ask again later, for {@code reason}. */
  static Answer unavailable(String reason) {
    return error(503, "Service Unavailable", reason + "; retry after " + RETRY_AFTER_SECONDS + " s")
        .with("Retry-After", RETRY_AFTER_SECONDS);
  }

  static Answer error(int status, String error, String message) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("statusCode", status);
    body.put("error", error);
    body.put("message", message);
    return json(status, body);
  }

  /** Cents as an amount of 2 decimals (a JSON number such as {@code 12.30}). */
  static BigDecimal amount(long cents) {
    return BigDecimal.valueOf(cents, 2);
  }

  /** This answer with one more header. */
  Answer with(String name, String value) {
    Map<String, String> more = new LinkedHashMap<>(headers);
    more.put(name, value);
    return new Answer(status, more, body);
  }

  String bodyText() {
    return new String(body, StandardCharsets.UTF_8);
  }
}

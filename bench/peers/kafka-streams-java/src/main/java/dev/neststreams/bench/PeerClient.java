package dev.neststreams.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.state.HostInfo;

/**
 * Requests of one {@code serve} instance to another (its {@code application.server}): a key
 * forwarded to its owner or to a standby, a part of a whole-cluster range. Marked with {@link
 * #FORWARDED} (the sender) so that the receiver never forwards again, and {@link #STANDBY} for a
 * standby read. Plain HTTP on loopback, unauthenticated: a benchmark peer, not a deployment.
 */
final class PeerClient {
  static final String FORWARDED = "X-Streams-Forwarded";
  static final String STANDBY = "X-Streams-Standby";
  /** Headers of the other instance's answer that are relayed as they are. */
  private static final List<String> RELAYED =
      List.of("Content-Type", "X-Served-By", "X-Stale", "X-Lag", "Retry-After");

  private final HttpClient http;
  private final String self;
  private final Duration timeout;

  PeerClient(String self, Duration timeout) {
    this.self = self;
    this.timeout = timeout;
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(timeout)
            .build();
  }

  /**
   * {@code GET pathAndQuery} on {@code host}; null when it did not answer (refused, reset,
   * timed out): the caller falls back or answers 503.
   */
  Answer get(HostInfo host, String pathAndQuery, boolean standby) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://" + host.host() + ":" + host.port() + pathAndQuery))
            .timeout(timeout)
            .header(FORWARDED, self)
            .GET();
    if (standby) request.header(STANDBY, "true");
    try {
      HttpResponse<byte[]> response =
          http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
      Map<String, String> headers = new LinkedHashMap<>();
      for (String name : RELAYED) {
        response.headers().firstValue(name).ifPresent(value -> headers.put(name, value));
      }
      return new Answer(response.statusCode(), headers, response.body());
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }
}

package dev.neststreams.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * The HTTP server of the {@code serve} mode (the JDK's {@link HttpServer}): the example
 * application's query and operations routes ({@link KeyReads}, {@link RangeReads}, {@link
 * Operations}) and the instances' own range route. Every answer names this instance in {@code
 * X-Served-By} (a relayed answer keeps the name of the instance that served it); an error while
 * answering is a 500 naming it.
 */
final class StatsHttpServer {
  private final HttpServer server;
  private final ExecutorService pool;

  private StatsHttpServer(HttpServer server, ExecutorService pool) {
    this.server = server;
    this.pool = pool;
  }

  static StatsHttpServer start(
      String servedBy, int port, KeyReads keys, RangeReads ranges, Operations operations)
      throws IOException {
    // Without TCP_NODELAY the JDK server writes headers and body apart (see QueryMode).
    System.setProperty("sun.net.httpserver.nodelay", "true");
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 128);
    // Forwarded requests wait on other instances: threads enough that they never wait on each
    // other's pools.
    ExecutorService pool = Executors.newFixedThreadPool(32);
    server.setExecutor(pool);
    route(server, servedBy, "/stats/", exchange -> stats(exchange, keys, ranges));
    route(
        server,
        servedBy,
        RangeReads.INTERNAL_PATH,
        exchange -> {
          Map<String, String> query = query(exchange);
          List<Integer> parts =
              Arrays.stream(query.getOrDefault("partitions", "").split(","))
                  .filter(s -> !s.isEmpty())
                  .map(Integer::valueOf)
                  .toList();
          return ranges.localPart(query.get("from"), query.get("to"), parts);
        });
    route(
        server,
        servedBy,
        "/health/",
        exchange -> operations.health(exchange.getRequestURI().getPath().substring(8)));
    route(server, servedBy, "/streams/metadata", exchange -> operations.metadata());
    server.start();
    return new StatsHttpServer(server, pool);
  }

  void stop() {
    server.stop(0);
    pool.shutdownNow();
  }

  private static Answer stats(HttpExchange exchange, KeyReads keys, RangeReads ranges) {
    String rest = exchange.getRequestURI().getRawPath().substring("/stats/".length());
    if (rest.equals("range")) {
      Map<String, String> query = query(exchange);
      String from = query.get("from");
      String to = query.get("to");
      if (from == null || to == null || from.isEmpty() || to.isEmpty()) {
        return Answer.error(400, "Bad Request", "from and to are required");
      }
      return ranges.range(from, to);
    }
    String userId = URLDecoder.decode(rest, StandardCharsets.UTF_8);
    if (userId.isEmpty()) return Answer.error(400, "Bad Request", "the request has no key");
    String forwardedFrom = exchange.getRequestHeaders().getFirst(PeerClient.FORWARDED);
    boolean standby = "true".equals(exchange.getRequestHeaders().getFirst(PeerClient.STANDBY));
    return keys.get(userId, forwardedFrom, forwardedFrom != null && standby);
  }

  private static void route(
      HttpServer server, String servedBy, String path, Function<HttpExchange, Answer> handler) {
    server.createContext(
        path,
        exchange -> {
          Answer answer;
          try {
            answer =
                exchange.getRequestMethod().equals("GET")
                    ? handler.apply(exchange)
                    : Answer.error(405, "Method Not Allowed", "GET only");
          } catch (RuntimeException e) {
            answer = Answer.error(500, "Internal Server Error", String.valueOf(e));
          }
          write(exchange, servedBy, answer);
        });
  }

  private static void write(HttpExchange exchange, String servedBy, Answer answer)
      throws IOException {
    answer.headers().forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
    if (!answer.headers().containsKey("X-Served-By")) {
      exchange.getResponseHeaders().set("X-Served-By", servedBy);
    }
    exchange.sendResponseHeaders(answer.status(), answer.body().length == 0 ? -1 : answer.body().length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(answer.body());
    }
  }

  /** The query string's parameters, decoded (the first of a repeated one). */
  private static Map<String, String> query(HttpExchange exchange) {
    Map<String, String> params = new HashMap<>();
    String raw = exchange.getRequestURI().getRawQuery();
    if (raw == null) return params;
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      params.putIfAbsent(name, value);
    }
    return params;
  }
}

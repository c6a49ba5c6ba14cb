package dev.neststreams.bench;

/** The aggregate per user: {@code {"count", "sum"}}. */
public record Stats(long count, long sum) {
  static Stats empty() {
    return new Stats(0, 0);
  }

  Stats add(Event event) {
    return new Stats(count + 1, sum + event.amount());
  }
}

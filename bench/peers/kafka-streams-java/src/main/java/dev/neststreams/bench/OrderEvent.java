package dev.neststreams.bench;

/**
 * An input event of the example application's contract (apps/order-stats): {@code {"userId":
 * string, "amount": number}}, the amount in currency units with at most 2 decimals (the
 * benchmarks' {@link Event} carries integer cents instead).
 */
public record OrderEvent(String userId, double amount) {
  /** The amount in cents, exact for amounts of at most 2 decimals. */
  long cents() {
    return Math.round(amount * 100);
  }
}

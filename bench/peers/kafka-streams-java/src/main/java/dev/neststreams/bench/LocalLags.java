package dev.neststreams.bench;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.LagInfo;

/**
 * The lag of this instance's copy of a store partition, in records, as a standby answer reports
 * it ({@code X-Lag}): {@link KafkaStreams#allLocalStorePartitionLags()}, which lists the
 * changelogs' end offsets with the admin client each time it is called, so the lag is measured
 * against the ends as of the request. It blocks while a broker does not answer: a lag that takes
 * longer than {@link #WAIT_MS} is unknown, and the answer is a 503 rather than a guess.
 */
final class LocalLags {
  static final long WAIT_MS = 3_000;
  private final KafkaStreams streams;
  private final ExecutorService pool =
      Executors.newCachedThreadPool(
          runnable -> {
            Thread thread = new Thread(runnable, "local-lags");
            thread.setDaemon(true);
            return thread;
          });

  LocalLags(KafkaStreams streams) {
    this.streams = streams;
  }

  /** The lag of the local copy of {@code store}'s {@code partition}; null when unknown or none. */
  Long of(String store, int partition) {
    try {
      Map<String, Map<Integer, LagInfo>> all =
          CompletableFuture.supplyAsync(streams::allLocalStorePartitionLags, pool)
              .get(WAIT_MS, TimeUnit.MILLISECONDS);
      LagInfo lag = all.getOrDefault(store, Map.of()).get(partition);
      return lag == null ? null : lag.offsetLag();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    } catch (Exception e) {
      // Not running, the admin request failed, or it took too long: unknown.
      return null;
    }
  }
}

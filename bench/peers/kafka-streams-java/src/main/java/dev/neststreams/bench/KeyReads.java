package dev.neststreams.bench;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * {@code GET /stats/:userId} of the {@code serve} mode, routed as a Kafka Streams application
 * with interactive queries routes it, and as the example application (apps/order-stats) does,
 * so that the same query checkers judge both:
 *
 * <ul>
 *   <li>no confirmed owner ({@code queryMetadataForKey} is {@code NOT_AVAILABLE}), or the client
 *       not RUNNING nor REBALANCING: 503 with {@code Retry-After};
 *   <li>this instance owns the key: its active copy answers ({@code store()} on the key's
 *       partition, active stores only: the stream thread RUNNING);
 *   <li>another instance owns it: the request is forwarded there once and its answer relayed; a
 *       request forwarded here for a key this instance does not own (ownership moving): 503;
 *   <li>the owner cannot answer (unreachable, 503, or its active copy restoring): a standby copy
 *       answers (this instance's, else the first other standby host's), marked {@code X-Stale:
 *       true} and {@code X-Lag: <records>} ({@link LocalLags}); none: 503.
 * </ul>
 *
 * 404 for a user the copy that answers does not hold.
 */
final class KeyReads {
  private final KafkaStreams streams;
  private final HostInfo self;
  private final PeerClient peers;
  private final LocalLags lags;

  KeyReads(KafkaStreams streams, HostInfo self, PeerClient peers, LocalLags lags) {
    this.streams = streams;
    this.self = self;
    this.peers = peers;
    this.lags = lags;
  }

  /**
   * The answer for {@code userId}; {@code forwardedFrom} is the sender of a forwarded request
   * (null for a client's), {@code standbyRead} a forwarded request for a standby copy.
   */
  Answer get(String userId, String forwardedFrom, boolean standbyRead) {
    KafkaStreams.State state = streams.state();
    if (!state.isRunningOrRebalancing()) {
      return Answer.unavailable("this instance's client is " + state);
    }
    KeyQueryMetadata metadata =
        streams.queryMetadataForKey(Topologies.STATS_STORE, userId, Serdes.String().serializer());
    if (metadata == null || metadata.equals(KeyQueryMetadata.NOT_AVAILABLE)) {
      return Answer.unavailable("no instance is the confirmed owner of the key (rebalancing)");
    }
    int partition = metadata.partition();
    if (standbyRead) {
      Answer stale = staleHere(userId, partition);
      return stale != null ? stale : Answer.unavailable("this instance holds no copy of the key");
    }
    HostInfo owner = metadata.activeHost();
    if (owner.equals(self)) {
      Answer active = activeHere(userId, partition);
      if (active != null) return active;
      if (forwardedFrom != null) {
        return Answer.unavailable("the active copy of the key is not queryable yet (restoring)");
      }
      return standby(userId, metadata);
    }
    if (forwardedFrom != null) {
      return Answer.unavailable(
          "the request was forwarded here but " + hostText(owner) + " owns the key now");
    }
    Answer forwarded = peers.get(owner, pathOf(userId), false);
    if (forwarded != null && forwarded.status() != 503) return forwarded;
    return standby(userId, metadata);
  }

  /** A standby copy's answer: this instance's, else the first other standby host's. */
  private Answer standby(String userId, KeyQueryMetadata metadata) {
    Answer here = staleHere(userId, metadata.partition());
    if (here != null) return here;
    for (HostInfo host : metadata.standbyHosts()) {
      if (host.equals(self) || host.equals(metadata.activeHost())) continue;
      Answer remote = peers.get(host, pathOf(userId), true);
      if (remote != null && remote.status() != 503) return remote;
    }
    return Answer.unavailable("owner and standby copies of the key unreachable");
  }

  /** The active copy's answer; null when this instance holds no queryable active copy. */
  private Answer activeHere(String userId, int partition) {
    try {
      ReadOnlyKeyValueStore<String, Stats> store =
          streams.store(
              StoreQueryParameters.fromNameAndType(
                      Topologies.STATS_STORE, QueryableStoreTypes.<String, Stats>keyValueStore())
                  .withPartition(partition));
      Stats value = store.get(userId);
      return value == null ? Answer.notFound(userId) : Answer.stats(value);
    } catch (InvalidStateStoreException e) {
      return null;
    }
  }

  /**
   * Any local copy's answer (standby, or an active one restoring), marked stale with its lag
   * (measured before the read, so the value is at least as new as the lag says); null when this
   * instance holds no copy or its lag is unknown.
   */
  private Answer staleHere(String userId, int partition) {
    Long lag = lags.of(Topologies.STATS_STORE, partition);
    if (lag == null) return null;
    try {
      ReadOnlyKeyValueStore<String, Stats> store =
          streams.store(
              StoreQueryParameters.fromNameAndType(
                      Topologies.STATS_STORE, QueryableStoreTypes.<String, Stats>keyValueStore())
                  .withPartition(partition)
                  .enableStaleStores());
      Stats value = store.get(userId);
      Answer answer = value == null ? Answer.notFound(userId) : Answer.stats(value);
      return answer.with("X-Stale", "true").with("X-Lag", Long.toString(lag));
    } catch (InvalidStateStoreException e) {
      return null;
    }
  }

  static String pathOf(String userId) {
    return "/stats/" + URLEncoder.encode(userId, StandardCharsets.UTF_8).replace("+", "%20");
  }

  static String hostText(HostInfo host) {
    return host.host() + ":" + host.port();
  }
}

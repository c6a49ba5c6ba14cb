import { Inject, Injectable } from '@nestjs/common';
import {
  type HostInfo,
  type KeyQueryMetadata,
  KafkaStreamsState,
  type Serde,
  Serdes,
  StateStoreNotAvailableError,
  StreamsNotStartedError,
} from '@nest-streams/streams';
import { KafkaStreamsHost } from '../../client/internals/kafka-streams.host';
import { StreamsModuleSettings } from '../../settings/internals/streams-module.settings';

/** Where a key lives, with what the routing decision needs. */
export interface KeyLocation {
  readonly metadata: KeyQueryMetadata;
  readonly self: HostInfo | undefined;
  /** Every instance in the current metadata. */
  readonly clusterHosts: readonly HostInfo[];
  /** Which copy of the key's partition this instance holds, when it has an `application.server`. */
  readonly localCopy?: 'active' | 'standby' | 'none';
}

/** How long a standby read waits for fresh changelog ends before it answers with the last known. */
export const LAG_REFRESH_WAIT_MS = 500;

/** Why a standby copy here does not answer when its changelog's end could not be read. */
const STANDBY_LAG_UNKNOWN =
  "this instance's standby copy cannot say its lag: its changelog's end offsets did not arrive in time";

/**
 * Finds the owner of a key with `queryMetadataForKey`, using the store's key serde (the one
 * given, else the `@StateStore` declaration's, else `Serdes.String()`), and the hosts of the
 * current metadata.
 *
 * Errors: the engine's `UnknownStateStoreError` for a store the topology lacks (fix the
 * name); `SerializationError` when the key does not fit the serde (bad input);
 * `StreamsNotStartedError` (retriable: HTTP 503) naming why, when no owner is known because this
 * instance's client is not running: a start waiting on a cause, a failed start, a stopped client.
 */
@Injectable()
export class KeyOwnerLocator {
  /** The changelog end lookup under way, and the one the reads arriving meanwhile wait for. */
  private lagLookup: Promise<boolean> | undefined;
  private nextLagLookup: Promise<boolean> | undefined;
  private hostsOf: readonly unknown[] | undefined;
  private hosts: readonly HostInfo[] = [];
  private readonly keySerdes = new Map<string, Serde<unknown>>();

  constructor(
    @Inject(KafkaStreamsHost) private readonly host: KafkaStreamsHost,
    @Inject(StreamsModuleSettings) private readonly settings: StreamsModuleSettings,
  ) {}

  get self(): HostInfo | undefined {
    return this.settings.self;
  }

  locate<K>(store: string, key: K, keySerde?: Serde<K>): KeyLocation {
    const serde = keySerde ?? this.keySerdeOf<K>(store);
    const metadata = this.host.streams.queryMetadataForKey(store, key, serde);
    if (!metadata.available) {
      const notRunning = this.notRunningReason();
      if (notRunning) throw new StreamsNotStartedError(notRunning);
    }
    const self = this.settings.self;
    const clusterHosts = this.clusterHosts();
    if (self === undefined || !metadata.available) return { metadata, self, clusterHosts };
    const localCopy = this.host.streams.localCopyOf(store, metadata.partition) ?? 'none';
    return { metadata, self, clusterHosts, localCopy };
  }

  /**
   * Why this instance's client cannot know a key's owner, when the cause is not a rebalance:
   * its start waits on a cause or failed on one (named with its code), or the client stopped.
   */
  private notRunningReason(): string | undefined {
    const streams = this.host.streams;
    const problem = streams.startupProblem;
    const state = streams.state;
    const failed = state === KafkaStreamsState.ERROR || state === KafkaStreamsState.PENDING_ERROR;
    if (problem) {
      const what = failed ? 'could not start' : 'is not started yet';
      return `this instance ${what}: ${problem.message} [${problem.code}]`;
    }
    if (failed) return `this instance's client failed (${state})`;
    if (state === KafkaStreamsState.NOT_RUNNING || state === KafkaStreamsState.PENDING_SHUTDOWN) {
      return `this instance's client is stopped (${state})`;
    }
    return undefined;
  }

  /**
   * Every instance (`application.server`) in the current metadata: worked out once per
   * assignment (the engine keeps one metadata list per assignment), not per request.
   */
  clusterHosts(): readonly HostInfo[] {
    const all = this.host.streams.metadataForAllStreamsClients();
    if (all !== this.hostsOf) {
      this.hostsOf = all;
      this.hosts = all.map((m) => m.hostInfo);
    }
    return this.hosts;
  }

  /**
   * The key serde of a store: its declaration's, else the default key serde, else strings
   * (looked up once per store after the client is created: declarations do not change then).
   */
  keySerdeOf<K>(store: string): Serde<K> {
    const known = this.keySerdes.get(store);
    if (known) return known as Serde<K>;
    const declared = this.host.created ? this.host.declarations.stores.get(store) : undefined;
    const serde = (declared?.options.keySerde ??
      this.declaredAggregationKeySerde(store) ??
      (Serdes.String() as Serde<unknown>)) as Serde<K>;
    if (this.host.created) this.keySerdes.set(store, serde as Serde<unknown>);
    return serde;
  }

  /** The value serde of a store's declaration, if any. */
  valueSerdeOf<V>(store: string): Serde<V> | undefined {
    const declared = this.host.created ? this.host.declarations.stores.get(store) : undefined;
    return declared?.options.valueSerde as Serde<V> | undefined;
  }

  /**
   * Fetches the changelogs' end offsets now, so the lag a standby copy reports with its next
   * answer is measured against them: ends read after the call. Waits at most `maxWaitMs` rather
   * than the client's request timeout (a broker hung, or its leadership moving); the lookup goes
   * on. Resolves `true` when the ends arrived in time, `false` when the lags are only as
   * fresh as the last ends known: a standby copy must then not claim a lag (it may say 0 while
   * behind).
   */
  async refreshLags(maxWaitMs = LAG_REFRESH_WAIT_MS): Promise<boolean> {
    const lookup = this.lookupFromNow();
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<false>((resolve) => (timer = setTimeout(resolve, maxWaitMs, false)));
    const fresh = await Promise.race([lookup, waited]);
    clearTimeout(timer);
    return fresh;
  }

  /**
   * What every read of a standby copy here does first (routing interceptor, query service, query
   * server): {@link refreshLags}, so the lag it answers with is measured against ends read after
   * it arrived.
   *
   * @throws StateStoreNotAvailableError (retriable: 503 + Retry-After) when the ends did not
   *   arrive within {@link LAG_REFRESH_WAIT_MS}: the copy could not vouch for its lag.
   */
  async requireFreshLags(): Promise<void> {
    if (!(await this.refreshLags())) throw new StateStoreNotAvailableError(STANDBY_LAG_UNKNOWN);
  }

  /**
   * A lookup of the changelog ends that starts now or later, never one already under way: ends
   * read before a read arrived could be older than what it must vouch for. Reads arriving while
   * one is under way share the next, which starts when it ends.
   */
  private lookupFromNow(): Promise<boolean> {
    if (!this.lagLookup) return (this.lagLookup = this.startLagLookup());
    this.nextLagLookup ??= this.lagLookup.then(() => {
      this.nextLagLookup = undefined;
      return (this.lagLookup = this.startLagLookup());
    });
    return this.nextLagLookup;
  }

  private startLagLookup(): Promise<boolean> {
    const lookup: Promise<boolean> = this.host.streams
      .allLocalStorePartitionLags()
      .then(
        () => true,
        () => false,
      )
      .finally(() => {
        if (this.lagLookup === lookup) this.lagLookup = undefined;
      });
    return lookup;
  }

  private declaredAggregationKeySerde(store: string): Serde<unknown> | undefined {
    if (!this.host.created) return undefined;
    return this.host.declarations.aggregations.find((a) => a.options.store === store)?.options
      .keySerde;
  }
}

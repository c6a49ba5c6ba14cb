import { Inject, Injectable } from '@nestjs/common';
import {
  type HostInfo,
  KafkaStreams,
  KeyQuery,
  type KeyValue,
  mergePositions,
  type Position,
  RangeQuery,
  type Serde,
  type SessionEntries,
  SessionKeyQuery,
  SessionWindow,
  type StateQueryRequest,
  type StateQueryResult,
  StateStoreMigratedError,
  StateStoreNotAvailableError,
  type StoreQuery,
  UnknownStateStoreError,
  Windowed,
  WindowKeyQuery,
  type ServedCopy,
} from '@nest-streams/streams';
import { RemoteQueryError } from '../errors/remote-query.error';
import { KeyOwnerLocator } from '../ownership/internals/key-owner.locator';
import { OwnerUnreachableError } from '../errors/owner-unreachable.error';
import { ownerThenStandby, type ReadTarget } from '../ownership/internals/owner-then-standby';
import { StreamsModuleSettings } from '../settings/internals/streams-module.settings';
import { InteractiveQueryClient } from './internals/interactive-query.client';
import {
  encodeStateQueryRequest,
  type RemoteQueryResponse,
} from './internals/interactive-query.protocol';
import { copyTarget } from './internals/copy-target';
import { planScatter, type InstanceQueryFailure } from './internals/scatter-plan';
import { StoreReadContext } from './internals/store-read-context';
import {
  errorFromFailure,
  errorOfPartitionFailure,
  failureOf,
} from './internals/query-failure.mapping';
import { fromWire } from './internals/wire-codec';

/** Options of a single-key query. */
export interface KeyQueryOptions<K> {
  /** Serde that partitions the key; default the store's declared key serde, else strings. */
  readonly keySerde?: Serde<K>;
  /**
   * When the owner is unreachable, read a standby copy (may lag); default the module's
   * `allowStaleReads`.
   */
  readonly allowStaleReads?: boolean;
  /** Read-your-writes: the answer must reflect at least this position (else retriable error). */
  readonly positionBound?: Position;
  /**
   * Read the copy that this instance (`host:port`, its `application.server`) holds, active or
   * standby, instead of the owner's: to compare a key's copies. A standby answers with its lag
   * (`active: false`); an instance without a copy of the key's partition answers
   * `StateStoreMigratedError`.
   */
  readonly copyAt?: string;
}

/** Options of a scatter-gather query. */
export interface ScatterQueryOptions<K> {
  /** Serde whose bytes order the merged entries; default the store's declared key serde. */
  readonly keySerde?: Serde<K>;
  /** Every partition's answer must reflect at least this position. */
  readonly positionBound?: Position;
}

export type { InstanceQueryFailure } from './internals/scatter-plan';

/**
 * The merged answer of every instance running a store. `complete` is false when any instance
 * or partition failed: the failure is in `failures`, its partitions' entries are missing.
 */
export interface ScatterGatherResult<K, V> {
  /** Every entry, sorted by serialized key (the stores' own order). */
  readonly entries: KeyValue<K, V>[];
  readonly failures: InstanceQueryFailure[];
  readonly complete: boolean;
  /** The instances that answered. */
  readonly servedBy: string[];
  /** The merged position of the answers (for read-your-writes follow-ups). */
  readonly position: Position;
}

/** What a single-key read answered, and which copy of which instance answered it. */
export interface KeyLookup<V> {
  readonly value: V | undefined;
  /** The instance (`application.server`) whose copy answered. */
  readonly servedBy: string;
  readonly partition: number;
  /** False when a standby copy answered: the value (or its absence) is `lag` records old. */
  readonly active: boolean;
  /** Records the answering copy was behind its changelog's end (0 for the active copy). */
  readonly lag: number;
}

type Served = Omit<KeyLookup<unknown>, 'value'>;

/**
 * Interactive queries across the whole application, on the engine's interactive query v2
 * API (`KafkaStreams.query()`, here or on the owner over the remote query transport): a key
 * is read where it lives; `range` and `all` ask every instance running the store, each for its
 * active partitions, and merge the answers sorted by key. A global store is whole on every
 * instance: every read of it is answered here.
 *
 * Errors of single-key reads are the engine's typed errors: `StateStoreNotAvailableError`
 * (no confirmed owner: rebalancing; or not up to the position bound), `StateStoreMigratedError`
 * (the key moved: rediscover and retry), `StreamsNotStartedError`, `OwnerUnreachableError` —
 * all retriable, retry after a backoff (or allow stale reads) —; `UnknownStateStoreError`
 * (fix the store name); `UnsupportedStoreOperationError` (the store kind cannot answer that
 * query); `RemoteQueryError` (`REMOTE_QUERIES_DISABLED`, `NO_QUERY_ENDPOINT`: turn on
 * `remoteQueries` on every instance; `STORE_EXCEPTION`: the store failed; `BAD_QUERY_ENDPOINT`: a
 * `copyAt` that is not `host:port`). Scatter-gather
 * never throws for one instance's or partition's failure: it reports it in `failures`; it
 * throws `StateStoreNotAvailableError` only when no instance runs the store at all.
 */
@Injectable()
export class InteractiveQueryService {
  constructor(
    @Inject(KafkaStreams) private readonly streams: KafkaStreams,
    @Inject(KeyOwnerLocator) private readonly locator: KeyOwnerLocator,
    @Inject(InteractiveQueryClient) private readonly client: InteractiveQueryClient,
    @Inject(StreamsModuleSettings) private readonly settings: StreamsModuleSettings,
  ) {}

  /**
   * The value of `key` in key-value store `store`, or undefined. With stale reads allowed, the
   * answer may come from a standby copy: use {@link lookup} to learn which copy answered.
   */
  async get<K, V>(store: string, key: K, options: KeyQueryOptions<K> = {}): Promise<V | undefined> {
    return (await this.lookup<K, V>(store, key, options)).value;
  }

  /**
   * {@link get}, with which copy answered: the owner's active copy, or (stale reads allowed,
   * owner unreachable) a standby copy and how many records it was behind — an `undefined`
   * value from a standby means "not in that copy", not "not in the store".
   */
  async lookup<K, V>(
    store: string,
    key: K,
    options: KeyQueryOptions<K> = {},
  ): Promise<KeyLookup<V>> {
    const { result, served } = await this.byKey(store, key, KeyQuery.withKey(key), options);
    return { value: (result ?? undefined) as V | undefined, ...served };
  }

  /** `key`'s windows of window store `store` starting in `[timeFrom, timeTo]`, oldest first. */
  async fetchWindows<K, V>(
    store: string,
    key: K,
    timeFrom: number,
    timeTo: number,
    options: KeyQueryOptions<K> = {},
  ): Promise<KeyValue<number, V>[]> {
    const query = WindowKeyQuery.withKeyAndWindowStartRange(key, timeFrom, timeTo);
    const { result } = await this.byKey(store, key, query, options);
    return (result ?? []) as KeyValue<number, V>[];
  }

  /** `key`'s sessions of session store `store` (oldest first), with `Windowed` keys. */
  async fetchSessions<K, AGG>(
    store: string,
    key: K,
    options: KeyQueryOptions<K> = {},
  ): Promise<SessionEntries<K, AGG>> {
    const { result } = await this.byKey(store, key, SessionKeyQuery.withKey(key), options);
    // Over the transport a `Windowed` key arrives as plain data.
    type Plain = { key: K; window: { start: number; end: number } };
    return ((result ?? []) as KeyValue<Windowed<K> | Plain, AGG>[]).map(({ key: k, value }) => ({
      key:
        k instanceof Windowed
          ? k
          : new Windowed(k.key, new SessionWindow(k.window.start, k.window.end)),
      value,
    }));
  }

  /** Entries with `from <= key <= to` (open bounds when undefined) across the cluster. */
  range<K, V>(
    store: string,
    from?: K,
    to?: K,
    options: ScatterQueryOptions<K> = {},
  ): Promise<ScatterGatherResult<K, V>> {
    return this.scatter<K, V>(store, RangeQuery.withRange<K>(from, to), options);
  }

  /** Every entry of `store` across the cluster. */
  all<K, V>(
    store: string,
    options: ScatterQueryOptions<K> = {},
  ): Promise<ScatterGatherResult<K, V>> {
    return this.scatter<K, V>(store, RangeQuery.withNoBounds<K>(), options);
  }

  /**
   * Runs `query` for `key` where it lives: on its owner's active copy, or, when the owner is
   * unreachable and stale reads are allowed, on a standby copy (see `ownerThenStandby`); with
   * `copyAt`, on that instance's copy.
   */
  private byKey<K>(
    store: string,
    key: K,
    query: StoreQuery<K>,
    options: KeyQueryOptions<K>,
  ): Promise<{ result: unknown; served: Served }> {
    const location = this.locator.locate(store, key, options.keySerde);
    const { partition } = location.metadata;
    const read = (target: ReadTarget) =>
      this.single(
        target,
        {
          storeName: store,
          query,
          partitions: [partition],
          positionBound: options.positionBound,
          requireActive: !target.standby,
        },
        partition,
      );
    if (options.copyAt !== undefined) return read(copyTarget(store, location, options.copyAt));
    const allowStale = options.allowStaleReads ?? this.settings.allowStaleReads;
    const input = { ...location, forwardedFrom: undefined };
    return ownerThenStandby<{ result: unknown; served: Served }>(
      input,
      { allowStale },
      async (target) => {
        try {
          return await read(target);
        } catch (error) {
          if (error instanceof OwnerUnreachableError && !target.local)
            return { unreachable: error };
          throw error;
        }
      },
    );
  }

  /** Runs a one-partition request: its result and the copy that answered, or its failure. */
  private async single<K>(
    target: ReadTarget,
    request: StateQueryRequest<K>,
    partition: number,
  ): Promise<{ result: unknown; served: Served }> {
    const where = target.local ? this.settings.servedBy : target.host.toString();
    // A standby copy here says its lag against ends read now (one elsewhere: its query server).
    if (target.local && target.standby) await this.locator.requireFreshLags();
    const answer = await this.run(target, request);
    // A global store answers whole, in `globalResult` (its keys have no partition).
    const result =
      answer.globalResult ?? answer.partitionResults.find((r) => r.partition === partition);
    if (!result) {
      throw new StateStoreMigratedError(
        `${where} did not answer for partition ${partition} of '${request.storeName}': rediscover the owner and retry`,
      );
    }
    if (!result.success) throw errorOfPartitionFailure(request.storeName, result, where);
    if (!result.active && result.lag === undefined) {
      throw new StateStoreNotAvailableError(
        `${where} answered for partition ${partition} of '${request.storeName}' from a standby copy without saying its lag: retry`,
      );
    }
    const served = this.recordServed(
      { storeName: request.storeName, partition, active: result.active, lag: result.lag ?? 0 },
      target,
    );
    return { result: result.result, served };
  }

  /** Notes the copy that answered in the current request's read record (for `X-Stale`/`X-Lag`). */
  private recordServed(copy: ServedCopy, target: ReadTarget): Served {
    const servedBy = target.local ? this.settings.servedBy : target.host.toString();
    StoreReadContext.record({ ...copy, servedBy });
    return { servedBy, partition: copy.partition, active: copy.active, lag: copy.lag };
  }

  private async scatter<K, V>(
    store: string,
    query: StoreQuery<K>,
    options: ScatterQueryOptions<K>,
  ): Promise<ScatterGatherResult<K, V>> {
    const keySerde = options.keySerde ?? this.locator.keySerdeOf<K>(store);
    const { asks, failures } = this.scatterPlan(store);

    const entries: KeyValue<K, V>[] = [];
    const positions: Position[] = [];
    const servedBy: string[] = [];
    await Promise.all(
      asks.map(async ({ target, instance, partitions }) => {
        let answer: StateQueryResult<unknown>;
        try {
          answer = await this.run(target, {
            storeName: store,
            query,
            partitions,
            positionBound: options.positionBound,
            requireActive: true,
          });
        } catch (error) {
          failures.push({ instance, partitions: partitions ?? [], ...failureOf(error) });
          return;
        }
        let answered = false;
        const results = answer.globalResult ? [answer.globalResult] : answer.partitionResults;
        for (const result of results) {
          if (result.success) {
            answered = true;
            entries.push(...((result.result ?? []) as KeyValue<K, V>[]));
            positions.push(result.position);
          } else {
            const error = errorOfPartitionFailure(store, result, instance);
            failures.push({ instance, partitions: [result.partition], ...failureOf(error) });
          }
        }
        if (answered || answer.partitionResults.length === 0) servedBy.push(instance);
      }),
    );
    const keyed = entries.map((entry) => ({ entry, bytes: keySerde.serialize(entry.key, store) }));
    keyed.sort((a, b) => Buffer.compare(a.bytes, b.bytes));
    failures.sort((a, b) => (a.partitions[0] ?? -1) - (b.partitions[0] ?? -1));
    return {
      entries: keyed.map((k) => k.entry),
      failures,
      complete: failures.length === 0,
      servedBy: servedBy.sort(),
      position: mergePositions(positions),
    };
  }

  /**
   * Whom a scatter-gather query of `store` asks (see `planScatter`); a global store only this
   * instance, whose copy is whole.
   *
   * @throws UnknownStateStoreError for a store the topology lacks; as `planScatter`.
   */
  private scatterPlan(store: string): ReturnType<typeof planScatter> {
    const { topology } = this.streams;
    if (topology.globalStores().has(store)) {
      const here = { local: true, standby: false } as const;
      return { asks: [{ target: here, instance: this.settings.servedBy }], failures: [] };
    }
    const sub = topology.subtopologyOf(store);
    if (!sub) throw new UnknownStateStoreError(`the topology has no state store named '${store}'`);
    return planScatter(
      store,
      sub,
      this.settings.self,
      this.settings.servedBy,
      this.streams.metadataForAllStreamsClients(),
      this.streams.storePartitionCount(store),
    );
  }

  /** The query endpoint of instance `host`, from the current metadata. */
  private endpointOf(host: HostInfo): string {
    const instance = this.streams
      .metadataForAllStreamsClients()
      .find((m) => m.hostInfo.equals(host));
    if (!instance) {
      throw new StateStoreMigratedError(
        `instance ${host.toString()} left the cluster metadata: rediscover the owner and retry`,
      );
    }
    if (!instance.queryEndpoint) {
      throw new RemoteQueryError(
        'NO_QUERY_ENDPOINT',
        false,
        `instance ${host.toString()} serves no query endpoint: set remoteQueries on every instance`,
        host.toString(),
      );
    }
    return instance.queryEndpoint;
  }

  /** Runs `request` here (`KafkaStreams.query()`) or on `target` over the query transport. */
  private async run<K>(
    target: ReadTarget,
    request: StateQueryRequest<K>,
  ): Promise<StateQueryResult<unknown>> {
    if (target.local) return this.streams.query(request);
    const endpoint = this.endpointOf(target.host);
    const response: RemoteQueryResponse = await this.client.send(endpoint, {
      version: 1,
      target: endpoint,
      from: this.settings.queryEndpoint ?? this.settings.servedBy,
      request: encodeStateQueryRequest(request as StateQueryRequest<unknown>),
    });
    if (response.ok) return fromWire(response.result) as StateQueryResult<unknown>;
    throw errorFromFailure(response.failure, endpoint);
  }
}

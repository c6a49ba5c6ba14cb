/**
 * The queries of Kafka Streams' interactive query API v2, as plain data so they can cross the
 * instance-to-instance transport: a key, a key range, one key's windows, all keys' windows.
 */
export class KeyQuery<K> {
  readonly type = 'key' as const;
  private constructor(readonly key: K) {}
  static withKey<K>(key: K): KeyQuery<K> {
    return new KeyQuery(key);
  }
}

/** Keys in `[lower, upper]` (either bound optional), ascending unless `descending`. */
export class RangeQuery<K> {
  readonly type = 'range' as const;
  private constructor(
    readonly lower: K | undefined,
    readonly upper: K | undefined,
    readonly descending: boolean,
  ) {}
  static withRange<K>(lower: K | undefined, upper: K | undefined): RangeQuery<K> {
    return new RangeQuery(lower, upper, false);
  }
  static withNoBounds<K>(): RangeQuery<K> {
    return new RangeQuery<K>(undefined, undefined, false);
  }
  withDescendingKeys(): RangeQuery<K> {
    return new RangeQuery(this.lower, this.upper, true);
  }
}

/** One key's windows starting in `[timeFrom, timeTo]`. */
export class WindowKeyQuery<K> {
  readonly type = 'window-key' as const;
  private constructor(
    readonly key: K,
    readonly timeFrom: number,
    readonly timeTo: number,
  ) {}
  static withKeyAndWindowStartRange<K>(
    key: K,
    timeFrom: number,
    timeTo: number,
  ): WindowKeyQuery<K> {
    return new WindowKeyQuery(key, timeFrom, timeTo);
  }
}

/** Every key's windows starting in `[timeFrom, timeTo]`. */
export class WindowRangeQuery {
  readonly type = 'window-range' as const;
  private constructor(
    readonly timeFrom: number,
    readonly timeTo: number,
  ) {}
  static withWindowStartRange(timeFrom: number, timeTo: number): WindowRangeQuery {
    return new WindowRangeQuery(timeFrom, timeTo);
  }
}

/**
 * One key's sessions of a session store (oldest first), with `Windowed` keys: the session
 * read Kafka Streams' query API v2 lacks, so that every read travels as one query.
 */
export class SessionKeyQuery<K> {
  readonly type = 'session' as const;
  private constructor(readonly key: K) {}
  static withKey<K>(key: K): SessionKeyQuery<K> {
    return new SessionKeyQuery(key);
  }
}

/**
 * Any query of the interactive query API v2 (`StateQueryRequest.withQuery`). A store that
 * cannot answer its kind reports `UNKNOWN_QUERY_TYPE` in its partition's result: use the query
 * kind that matches the store (key-value, window or session).
 */
export type StoreQuery<K> =
  KeyQuery<K> | RangeQuery<K> | WindowKeyQuery<K> | WindowRangeQuery | SessionKeyQuery<K>;

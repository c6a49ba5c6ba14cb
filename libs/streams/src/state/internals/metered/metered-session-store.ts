import { SessionWindow } from '../../../windowing/session-window';
import { Windowed } from '../../../windowing/windowed';
import type { SessionEntries, SessionStore } from '../../session-store';
import type { KeyValueBytes } from '../../bytes-store';
import { MeteredStore } from './metered-store';
import {
  SessionKeySchema,
  sessionStoreRange,
  toSessionEntry,
  type SessionQuery,
} from '../segments/session-key-schema';
import { NOT_SAMPLED, OP } from './store-metrics';

/**
 * The session facade of the metered layer: typed sessions over the stack, whose store keys
 * are `[key][end][start]` (see {@link SessionKeySchema}; the same bytes key the changelog).
 * Sessions ending before `streamTime - retention + 1` are neither written nor returned.
 * Merging sessions is the aggregation's job: this store only keeps them.
 *
 * Errors: calls before `init` or after `close` throw `StoreClosedError`; `InvalidWindowError`
 * for bad times (negative, `end < start`); `UnsupportedStoreOperationError` for synchronous
 * reads an engine cannot serve (use the `...Async` reads).
 */
export class MeteredSessionStore<K, AGG>
  extends MeteredStore<K, AGG, Windowed<K>>
  implements SessionStore<K, AGG>
{
  protected flushKeyOf(sessionKey: Buffer): Windowed<K> {
    const { key, start, end } = SessionKeySchema.fromBinary(sessionKey);
    return new Windowed(this.keySerde.deserialize(key, this.topic), new SessionWindow(start, end));
  }

  put(sessionKey: Windowed<K>, aggregate: AGG | null): void {
    const stack = this.open();
    const mark = this.metrics.start(OP.put);
    stack.put(
      this.sessionKey(sessionKey),
      aggregate === null ? null : this.valueSerde.serialize(aggregate, this.topic),
    );
    if (mark !== NOT_SAMPLED) this.metrics.end(OP.put, mark);
  }

  remove(sessionKey: Windowed<K>): void {
    const stack = this.open();
    this.metrics.add(OP.delete, 1);
    stack.put(this.sessionKey(sessionKey), null);
  }

  fetch(key: K): SessionEntries<K, AGG>;
  fetch(keyFrom: K | undefined, keyTo: K | undefined): SessionEntries<K, AGG>;
  fetch(...args: [K] | [K | undefined, K | undefined]): SessionEntries<K, AGG> {
    return this.read(
      args.length === 1 ? this.keyQuery(args[0]) : this.rangeQuery(args[0], args[1]),
    );
  }

  fetchSession(key: K, start: number, end: number): AGG | undefined {
    const stack = this.open();
    const mark = this.metrics.start(OP.get);
    const bytes = stack.get(SessionKeySchema.toBinary(this.keyBytes(key), start, end));
    if (mark !== NOT_SAMPLED) this.metrics.end(OP.get, mark);
    return this.value(bytes);
  }

  findSessions(
    key: K,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
  ): SessionEntries<K, AGG> {
    return this.read(this.keyQuery(key, earliestSessionEndTime, latestSessionStartTime));
  }

  backwardFindSessions(
    key: K,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
  ): SessionEntries<K, AGG> {
    return this.read(this.keyQuery(key, earliestSessionEndTime, latestSessionStartTime, true));
  }

  fetchAsync(key: K, backward = false): Promise<SessionEntries<K, AGG>> {
    return this.readAsync(this.keyQuery(key, undefined, undefined, backward));
  }

  fetchRangeAsync(
    keyFrom: K | undefined,
    keyTo: K | undefined,
    backward = false,
  ): Promise<SessionEntries<K, AGG>> {
    return this.readAsync(this.rangeQuery(keyFrom, keyTo, backward));
  }

  async fetchSessionAsync(key: K, start: number, end: number): Promise<AGG | undefined> {
    const stack = this.open();
    this.metrics.add(OP.get, 1);
    const sessionKey = SessionKeySchema.toBinary(this.keyBytes(key), start, end);
    return this.value(await stack.getAsync(sessionKey));
  }

  findSessionsAsync(
    key: K,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
    backward = false,
  ): Promise<SessionEntries<K, AGG>> {
    const query = this.keyQuery(key, earliestSessionEndTime, latestSessionStartTime, backward);
    return this.readAsync(query);
  }

  /**
   * Engine-internal, for emitting closed sessions (`EmitStrategy.onWindowClose()`): every
   * key's sessions ending in `[earliestSessionEndTime, latestSessionEndTime]`, including those
   * past retention that a live segment still holds, as Kafka Streams' time-ordered session
   * store reads them, in its order: by end, then start, then key bytes. Errors are those of
   * `fetch`.
   */
  findSessionsEndingIn(
    earliestSessionEndTime: number,
    latestSessionEndTime: number,
  ): SessionEntries<K, AGG> {
    const stack = this.open();
    this.metrics.add(OP.range, 1);
    if (earliestSessionEndTime > latestSessionEndTime) return [];
    const found = [
      ...stack.read({
        segmentTimeFrom: Math.max(0, earliestSessionEndTime),
        segmentTimeTo: latestSessionEndTime,
        retention: 'segments',
        accept: (sessionKey) => {
          const { end } = SessionKeySchema.fromBinary(sessionKey);
          return end >= earliestSessionEndTime && end <= latestSessionEndTime;
        },
      }),
    ];
    return this.entries(found.sort((a, b) => timeFirstOrder(a.key, b.key)));
  }

  private sessionKey({ key, window }: Windowed<K>): Buffer {
    return SessionKeySchema.toBinary(this.keyBytes(key), window.start, window.end);
  }

  private keyQuery(
    key: K,
    earliestSessionEndTime?: number,
    latestSessionStartTime?: number,
    backward = false,
  ): SessionQuery {
    return { key: this.keyBytes(key), earliestSessionEndTime, latestSessionStartTime, backward };
  }

  private rangeQuery(keyFrom: K | undefined, keyTo: K | undefined, backward = false): SessionQuery {
    return {
      keyFrom: keyFrom === undefined ? undefined : this.keyBytes(keyFrom),
      keyTo: keyTo === undefined ? undefined : this.keyBytes(keyTo),
      backward,
    };
  }

  private read(query: SessionQuery): SessionEntries<K, AGG> {
    const stack = this.open();
    this.metrics.add(OP.range, 1);
    const range = sessionStoreRange(query);
    return range === undefined ? [] : this.entries(stack.read(range));
  }

  private async readAsync(query: SessionQuery): Promise<SessionEntries<K, AGG>> {
    const stack = this.open();
    this.metrics.add(OP.range, 1);
    const range = sessionStoreRange(query);
    return range === undefined ? [] : this.entries(await stack.readAsync(range));
  }

  private entries(source: Iterable<KeyValueBytes>): SessionEntries<K, AGG> {
    const result: SessionEntries<K, AGG> = [];
    for (const entry of source) {
      const { key, start, end, value } = toSessionEntry(entry.key, entry.value);
      result.push({
        key: new Windowed(
          this.keySerde.deserialize(key, this.topic),
          new SessionWindow(start, end),
        ),
        value: this.valueSerde.deserialize(value, this.topic),
      });
    }
    return result;
  }
}

/** The order of Kafka Streams' time-first session keys: end, then start, then key bytes. */
function timeFirstOrder(a: Buffer, b: Buffer): number {
  const x = SessionKeySchema.fromBinary(a);
  const y = SessionKeySchema.fromBinary(b);
  return x.end - y.end || x.start - y.start || Buffer.compare(x.key, y.key);
}

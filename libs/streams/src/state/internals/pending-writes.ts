import type { BytesWrite } from '../bytes-store';
import { isEmptyRange, prefixUpperBound } from './byte-range';
import type { DirtyEntry } from './cache-merge';
import { SortedKeyList } from './sorted-key-list';

/** Bytes a pending entry costs besides its key and value (map entry, list slot, string). */
const ENTRY_OVERHEAD = 64;

/**
 * Writes not in the engine yet, indexed by key: the last write of each key (a `null` value
 * deletes it), readable one key at a time and by range or prefix. What
 * {@link TransactionalBytesStore} lays over its engine: the writes of the open transaction (or,
 * at-least-once, those not handed to the engine yet), and the batch on its way to the engine.
 *
 * The key order is built on the first read by range or prefix (one sort) and then kept until
 * {@link clear}: writes of stores read by key only (an aggregation) cost a map entry each.
 */
export class PendingWrites {
  /** Writes by key (latin1 strings sort as the bytes do). */
  private readonly writes = new Map<string, BytesWrite>();
  /** The keys in order, once a read by range or prefix asked for it. */
  private order: SortedKeyList | undefined;
  private byteCount = 0;

  get size(): number {
    return this.writes.size;
  }

  /** Bytes of keys and values held, with a fixed overhead per key. */
  get bytes(): number {
    return this.byteCount;
  }

  /** The write of the key whose {@link pendingKey} is `key`, if one is held. */
  get(key: string): BytesWrite | undefined {
    return this.writes.get(key);
  }

  /** Keeps `write`, replacing an earlier write of its key. */
  set(write: BytesWrite): void {
    const key = pendingKey(write.key);
    const previous = this.writes.get(key);
    if (previous === undefined) {
      this.order?.insert(key);
      this.byteCount += write.key.length + ENTRY_OVERHEAD;
    } else {
      this.byteCount -= previous.value?.length ?? 0;
    }
    this.writes.set(key, write);
    this.byteCount += write.value?.length ?? 0;
  }

  clear(): void {
    if (this.writes.size === 0) return;
    this.writes.clear();
    this.order = undefined;
    this.byteCount = 0;
  }

  /** Every write, in the order their keys were first written (one per key: any order will do). */
  list(): BytesWrite[] {
    return [...this.writes.values()];
  }

  /** Writes with `from <= key <= to`, in the read's direction (a snapshot). */
  between(from: Buffer | undefined, to: Buffer | undefined, reverse: boolean): DirtyEntry[] {
    if (this.writes.size === 0 || isEmptyRange(from, to)) return [];
    const low = from === undefined ? undefined : pendingKey(from);
    const high = to === undefined ? undefined : pendingKey(to);
    const order = this.sorted();
    const keys = reverse ? order.descending(low, high) : order.ascending(low, high);
    return [...keys].map((key) => this.writes.get(key)!);
  }

  /** Writes whose key starts with `prefix`, in key order (a snapshot). */
  inPrefix(prefix: Buffer): BytesWrite[] {
    if (this.writes.size === 0) return [];
    const upper = prefixUpperBound(prefix);
    const high = upper === undefined ? undefined : pendingKey(upper);
    const found: BytesWrite[] = [];
    for (const key of this.sorted().ascending(pendingKey(prefix))) {
      if (high !== undefined && key >= high) break;
      found.push(this.writes.get(key)!);
    }
    return found;
  }

  /** The key order, built now when no read by range asked for it since the last clear. */
  private sorted(): SortedKeyList {
    return (this.order ??= SortedKeyList.fromSorted([...this.writes.keys()].sort()));
  }
}

/** A key as {@link PendingWrites} indexes it: its bytes as latin1 (which sorts as they do). */
export function pendingKey(key: Buffer): string {
  return key.toString('latin1');
}

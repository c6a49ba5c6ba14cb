import { Window } from './window';

/**
 * A key of a windowed result: the record key together with the window it was aggregated in.
 * The key type of windowed KTables, of window-store range queries and of session stores.
 *
 * For a {@link TimeWindow} the window is `[start, end)` with `end = start + size`; for a
 * {@link SessionWindow} it is `[start, end]`.
 */
export class Windowed<K> {
  constructor(
    readonly key: K,
    readonly window: Window,
  ) {}

  /**
   * Same window and equal keys; keys are compared with `keyEquals` (default `Object.is`, so
   * pass a comparison for object or `Buffer` keys).
   */
  equals(other: Windowed<K>, keyEquals: (a: K, b: K) => boolean = Object.is): boolean {
    return this.window.equals(other.window) && keyEquals(this.key, other.key);
  }

  /** `[<key>@<start>/<end>]`, as Kafka Streams prints windowed keys. */
  toString(): string {
    return `[${String(this.key)}@${this.window.start}/${this.window.end}]`;
  }
}

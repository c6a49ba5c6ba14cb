import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { seededRandom } from './seeded-random';

/** How to generate a run's input. */
export interface EventDataParams {
  /** Number of events. */
  readonly events: number;
  /** Number of user ids drawn from (uniformly, so some may get no event). */
  readonly keys: number;
  readonly seed: number;
  /** Timestamp of the first event (epoch ms); later ones are spread evenly over `spanMs`. */
  readonly startTimestampMs: number;
  readonly spanMs: number;
  /** Every event gets its own key (a seeded permutation): `keys` must equal `events`. */
  readonly distinctKeys?: boolean;
}

/** The event of index `i`: key, JSON value and timestamp. */
export interface BenchEvent {
  readonly userId: string;
  /** Integer cents, 1..9999: sums stay exact in every language. */
  readonly amount: number;
  readonly timestamp: number;
}

/**
 * A run's input, generated once from a seed and shared by every system: event `i` has user
 * `keyOf(i)`, value `{"userId": ..., "amount": <integer cents>}` and a timestamp that grows
 * with `i` (so no record is late for any window). Kept as typed arrays: 1M events cost 8 MB.
 */
export class EventData {
  private readonly keyIndex: Uint32Array;
  private readonly amounts: Uint16Array;
  private readonly keyWidth: number;

  constructor(readonly params: EventDataParams) {
    const { events, keys, seed } = params;
    if (!Number.isInteger(events) || events <= 0) throw new RangeError('events must be > 0');
    if (!Number.isInteger(keys) || keys <= 0) throw new RangeError('keys must be > 0');
    if (params.distinctKeys && keys !== events) {
      throw new RangeError('distinct keys need as many keys as events');
    }
    const random = seededRandom(seed);
    this.keyWidth = Math.max(6, String(keys - 1).length);
    this.keyIndex = new Uint32Array(events);
    this.amounts = new Uint16Array(events);
    if (params.distinctKeys) {
      for (let i = 0; i < events; i++) this.keyIndex[i] = i;
      for (let i = events - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        const swap = this.keyIndex[i];
        this.keyIndex[i] = this.keyIndex[j];
        this.keyIndex[j] = swap;
      }
    } else {
      for (let i = 0; i < events; i++) this.keyIndex[i] = Math.floor(random() * keys);
    }
    for (let i = 0; i < events; i++) this.amounts[i] = 1 + Math.floor(random() * 9999);
  }

  get length(): number {
    return this.keyIndex.length;
  }

  keyOf(i: number): string {
    return `user-${String(this.keyIndex[i]).padStart(this.keyWidth, '0')}`;
  }

  amountOf(i: number): number {
    return this.amounts[i];
  }

  timestampOf(i: number): number {
    const { startTimestampMs, spanMs } = this.params;
    return startTimestampMs + Math.floor((i * spanMs) / this.length);
  }

  /** The record value of event `i`, as produced to the topic. */
  valueOf(i: number): string {
    return `{"userId":"${this.keyOf(i)}","amount":${this.amounts[i]}}`;
  }

  event(i: number): BenchEvent {
    return { userId: this.keyOf(i), amount: this.amounts[i], timestamp: this.timestampOf(i) };
  }

  /** Total bytes of all record values (UTF-8 = ASCII here). */
  totalValueBytes(): number {
    let total = 0;
    for (let i = 0; i < this.length; i++) total += this.valueOf(i).length;
    return total;
  }

  /** Writes `key\tvalue` lines, one per event in order, for workers that need the raw data. */
  async writeFile(path: string): Promise<void> {
    const out = createWriteStream(path);
    const chunk: string[] = [];
    for (let i = 0; i < this.length; i++) {
      chunk.push(`${this.keyOf(i)}\t${this.valueOf(i)}\n`);
      if (chunk.length === 10_000 || i === this.length - 1) {
        if (!out.write(chunk.join(''))) await once(out, 'drain');
        chunk.length = 0;
      }
    }
    out.end();
    await once(out, 'finish');
  }
}

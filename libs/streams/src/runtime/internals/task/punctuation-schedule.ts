import { PunctuationType, type Cancellable, type Punctuator } from '../../../processor/punctuation';

interface Scheduled {
  readonly type: PunctuationType;
  readonly intervalMs: number;
  readonly punctuator: Punctuator;
  readonly node: string;
  next: number;
  cancelled: boolean;
}

/**
 * A task's punctuators. Stream-time ones fire when stream time reaches their next boundary
 * (once per call, however far time jumped, as Kafka Streams does); wall-clock ones fire when the
 * processing loop reports a time past theirs.
 */
export class PunctuationSchedule {
  private readonly entries: Scheduled[] = [];

  schedule(
    node: string,
    intervalMs: number,
    type: PunctuationType,
    punctuator: Punctuator,
    now: number,
  ): Cancellable {
    if (!Number.isFinite(intervalMs) || intervalMs < 1) {
      throw new RangeError(`punctuation interval must be >= 1 ms, got ${intervalMs}`);
    }
    const entry: Scheduled = {
      type,
      intervalMs,
      punctuator,
      node,
      // Stream time: the first punctuation is at the first record; wall clock: one interval on.
      next: type === PunctuationType.STREAM_TIME ? (now < 0 ? -1 : now) : now + intervalMs,
      cancelled: false,
    };
    this.entries.push(entry);
    return {
      cancel: () => {
        entry.cancelled = true;
      },
    };
  }

  /** Runs due punctuators of `type` at `time`; `run` wraps each call (node context, errors). */
  fire(type: PunctuationType, time: number, run: (node: string, fn: () => void) => void): number {
    let fired = 0;
    for (const entry of this.entries) {
      if (entry.cancelled || entry.type !== type || time < 0) continue;
      if (entry.next < 0) entry.next = time;
      if (time >= entry.next) {
        run(entry.node, () => entry.punctuator(time));
        entry.next = time + entry.intervalMs;
        fired++;
      }
    }
    for (let i = this.entries.length - 1; i >= 0; i--) {
      if (this.entries[i].cancelled) this.entries.splice(i, 1);
    }
    return fired;
  }

  get size(): number {
    return this.entries.length;
  }
}

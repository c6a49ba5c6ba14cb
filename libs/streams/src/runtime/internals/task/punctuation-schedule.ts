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
 * A task's punctuators, scheduled as Kafka Streams' `PunctuationQueue` does. Stream-time ones
 * are aligned to 0: the first fires at the task's first record, the next ones at the following
 * multiples of the interval after it. Wall-clock ones fire one interval after they were
 * scheduled, then every interval from there. Each fires at most once per call however far time
 * jumped, and its next time is the first boundary after the call's time (missed ones skipped).
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
      // Stream time: aligned to 0 (due at the first record); wall clock: one interval on.
      next: type === PunctuationType.STREAM_TIME ? 0 : now + intervalMs,
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
      if (time >= entry.next) {
        run(entry.node, () => entry.punctuator(time));
        const missed = Math.floor((time - entry.next) / entry.intervalMs);
        entry.next += (missed + 1) * entry.intervalMs;
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

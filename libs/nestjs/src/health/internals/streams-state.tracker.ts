import { Injectable } from '@nestjs/common';
import {
  type KafkaStreams,
  KafkaStreamsState,
  type StateRestoreListener,
  type TopicPartition,
} from '@nest-streams/streams';

/** Restore progress of one changelog partition of one store. */
export interface RestoreProgress {
  readonly store: string;
  readonly topic: string;
  readonly partition: number;
  readonly startOffset: number;
  /** Exclusive end offset captured when the restore started. */
  readonly endOffset: number;
  /** Records written to the store so far. */
  readonly restored: number;
  /** Last offset restored so far (or `startOffset - 1` before the first batch). */
  readonly position: number;
  readonly done: boolean;
}

/**
 * Follows the client's state and changelog restores for health and metrics: how many
 * rebalances happened and how long they took, and each store partition's restore progress.
 * Installed as the client's global restore listener (forwarding to the one in the module
 * options).
 */
@Injectable()
export class StreamsStateTracker {
  private readonly progress = new Map<string, RestoreProgress>();
  private rebalanceCount = 0;
  private rebalanceStartedAt: number | undefined;
  private lastRebalanceMs: number | undefined;
  private lastRebalanceStart: number | undefined;
  private restoredTotal = new Map<string, number>();
  private readonly rebalanceListeners: ((durationMs: number | undefined) => void)[] = [];
  private runningOnce = false;
  private draining = false;

  /** The clock (overridable in tests). */
  protected now(): number {
    return Date.now();
  }

  /** Starts following `streams`; `forward` also receives every restore callback. */
  attach(streams: KafkaStreams, forward?: StateRestoreListener): void {
    streams.onStateChange((state, previous) => this.onStateChange(state, previous));
    streams.setGlobalStateRestoreListener(this.restoreListener(forward));
  }

  /** The client reached RUNNING at least once: its first assignment was restored. */
  get startedOnce(): boolean {
    return this.runningOnce;
  }

  /** The application is shutting down (draining requests before the client closes). */
  get shuttingDown(): boolean {
    return this.draining;
  }

  /** @internal Called by the runtime when the application starts shutting down. */
  markShuttingDown(): void {
    this.draining = true;
  }

  /** Rebalances seen (entries into REBALANCING). */
  get rebalances(): number {
    return this.rebalanceCount;
  }

  /** Duration of the last completed rebalance (REBALANCING until RUNNING), in ms. */
  get lastRebalanceDurationMs(): number | undefined {
    return this.lastRebalanceMs;
  }

  /** When the last rebalance began (epoch ms: the last entry into REBALANCING). */
  get lastRebalanceAt(): number | undefined {
    return this.lastRebalanceStart;
  }

  /** Called when a rebalance ends (with its duration) or starts (with undefined). */
  onRebalance(listener: (durationMs: number | undefined) => void): void {
    this.rebalanceListeners.push(listener);
  }

  /** Progress of every store partition restored since start (latest restore of each). */
  restores(): RestoreProgress[] {
    return [...this.progress.values()];
  }

  /** Records restored into `store` since start. */
  restoredRecords(): ReadonlyMap<string, number> {
    return this.restoredTotal;
  }

  /** @internal */
  onStateChange(state: KafkaStreamsState, previous: KafkaStreamsState): void {
    if (state === KafkaStreamsState.RUNNING) this.runningOnce = true;
    if (state === KafkaStreamsState.REBALANCING && previous !== KafkaStreamsState.REBALANCING) {
      this.rebalanceCount++;
      this.rebalanceStartedAt = this.now();
      this.lastRebalanceStart = this.rebalanceStartedAt;
      for (const listener of this.rebalanceListeners) listener(undefined);
    }
    if (state === KafkaStreamsState.RUNNING && this.rebalanceStartedAt !== undefined) {
      this.lastRebalanceMs = this.now() - this.rebalanceStartedAt;
      this.rebalanceStartedAt = undefined;
      for (const listener of this.rebalanceListeners) listener(this.lastRebalanceMs);
    }
  }

  /** @internal The listener installed on the client. */
  restoreListener(forward?: StateRestoreListener): StateRestoreListener {
    const key = (tp: TopicPartition, store: string) =>
      `${store}\u0000${tp.topic}\u0000${tp.partition}`;
    return {
      onRestoreStart: (tp, store, startOffset, endOffset) => {
        this.progress.set(key(tp, store), {
          store,
          topic: tp.topic,
          partition: tp.partition,
          startOffset,
          endOffset,
          restored: 0,
          position: startOffset - 1,
          done: startOffset >= endOffset,
        });
        forward?.onRestoreStart?.(tp, store, startOffset, endOffset);
      },
      onBatchRestored: (tp, store, batchEndOffset, numRestored) => {
        const current = this.progress.get(key(tp, store));
        if (current) {
          this.progress.set(key(tp, store), {
            ...current,
            restored: current.restored + numRestored,
            position: batchEndOffset,
          });
        }
        this.restoredTotal.set(store, (this.restoredTotal.get(store) ?? 0) + numRestored);
        forward?.onBatchRestored?.(tp, store, batchEndOffset, numRestored);
      },
      onRestoreEnd: (tp, store, totalRestored) => {
        const current = this.progress.get(key(tp, store));
        if (current) {
          this.progress.set(key(tp, store), {
            ...current,
            restored: totalRestored,
            position: Math.max(current.position, current.endOffset - 1),
            done: true,
          });
        }
        forward?.onRestoreEnd?.(tp, store, totalRestored);
      },
    };
  }
}

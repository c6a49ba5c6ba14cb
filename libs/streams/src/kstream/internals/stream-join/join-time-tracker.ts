/**
 * The time both sides of one stream-stream join share in one task (Kafka Streams'
 * `KStreamImplJoin.TimeTracker`): the largest timestamp either side saw, the smallest
 * timestamp of a record waiting in the outer-join store, and when (wall clock) the waiting
 * records may next be looked at.
 */
export class JoinTimeTracker {
  /** The largest record timestamp either side processed; -1 before any. */
  streamTime = -1;
  /** The smallest timestamp of a record put in the outer-join store since the last emission. */
  minTime = Number.MAX_SAFE_INTEGER;
  /** The wall-clock time from which the outer-join store may be scanned again. */
  nextTimeToEmit = 0;
  private emitIntervalMs = 1000;

  setEmitInterval(emitIntervalMs: number): void {
    this.emitIntervalMs = emitIntervalMs;
  }

  advanceStreamTime(timestamp: number): void {
    this.streamTime = Math.max(timestamp, this.streamTime);
  }

  updatedMinTime(timestamp: number): void {
    this.minTime = Math.min(timestamp, this.minTime);
  }

  advanceNextTimeToEmit(): void {
    this.nextTimeToEmit += this.emitIntervalMs;
  }
}

/**
 * One {@link JoinTimeTracker} per task, shared by the two sides of a join (each side's
 * processor takes its task's tracker at init and releases it at close).
 */
export class JoinTimeTrackers {
  private readonly trackers = new Map<string, JoinTimeTracker>();

  get(taskId: string): JoinTimeTracker {
    let tracker = this.trackers.get(taskId);
    if (tracker === undefined) {
      tracker = new JoinTimeTracker();
      this.trackers.set(taskId, tracker);
    }
    return tracker;
  }

  remove(taskId: string): void {
    this.trackers.delete(taskId);
  }
}

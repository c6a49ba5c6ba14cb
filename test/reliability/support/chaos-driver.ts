import { SeededRandom } from '../../../apps/event-generator/src/random';
import type { ClusterSeat, OrderStatsCluster } from './order-stats-cluster';

/** How the driver kills. */
export interface ChaosDriverOptions {
  /** Seed of the choice of victims and intervals (reported, so a run can be replayed). */
  readonly seed: number;
  /** Smallest and largest pause between two kills, ms (10–20 s in the suite). */
  readonly minIntervalMs: number;
  readonly maxIntervalMs: number;
  /** Pause between a kill and the restart of the same seat, ms. */
  readonly downtimeMs: number;
}

/** One kill and its restart. */
export interface ChaosEvent {
  readonly seat: number;
  readonly killedAt: number;
  restartedAt?: number;
}

/**
 * SIGKILLs a random live instance of an {@link OrderStatsCluster} every 10–20 s (seeded, from
 * one kill to the next) and restarts it on the same ports and state dir after a short downtime,
 * until told to stop and at least a given number of kills happened. Only one seat is down at a
 * time.
 */
export class ChaosDriver {
  readonly events: ChaosEvent[] = [];
  private readonly random: SeededRandom;
  private stopRequested = false;
  private wake: (() => void) | undefined;

  constructor(
    private readonly cluster: OrderStatsCluster,
    readonly options: ChaosDriverOptions,
  ) {
    this.random = new SeededRandom(options.seed);
  }

  get kills(): number {
    return this.events.length;
  }

  get restarts(): number {
    return this.events.filter((e) => e.restartedAt !== undefined).length;
  }

  /**
   * Kills and restarts until {@link stop} was called and `minKills` kills are done; resolves
   * after the last restart (the restarted process answers HTTP).
   */
  async run(minKills: number): Promise<void> {
    const { minIntervalMs, maxIntervalMs, downtimeMs } = this.options;
    let previousKill = Date.now();
    while (!this.stopRequested || this.kills < minKills) {
      // The interval runs from one kill to the next (the restart in between counts).
      const interval = this.random.nextInt(minIntervalMs, maxIntervalMs);
      await this.pause(Math.max(0, previousKill + interval - Date.now()), this.kills < minKills);
      if (this.stopRequested && this.kills >= minKills) break;
      const alive = this.cluster.aliveSeats();
      if (alive.length === 0) throw new Error('no live instance to kill');
      const victim: ClusterSeat = alive[this.random.nextInt(0, alive.length - 1)];
      previousKill = Date.now();
      const event: ChaosEvent = { seat: victim.index, killedAt: previousKill };
      this.events.push(event);
      await this.cluster.kill(victim);
      await new Promise((r) => setTimeout(r, downtimeMs));
      await this.cluster.restart(victim);
      event.restartedAt = Date.now();
    }
  }

  /** Asks the driver to finish (after `minKills`); a pause in progress ends at once. */
  stop(): void {
    this.stopRequested = true;
    this.wake?.();
  }

  private pause(ms: number, mustKill: boolean): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      // A stop ends the pause only when no more kills are owed.
      this.wake = mustKill ? undefined : done;
    });
  }
}

import { LATEST_OFFSET, type SubscriptionInfo } from '../../../cluster/internals/assignment-info';
import type { StateLogger } from '../../../logging/logger';
import type { StateDirectory } from '../task-state/state-directory';
import { localTaskOffsetSums } from './task-offset-sums';

/** What a {@link ClientSubscription} reads from its client when a rebalance asks. */
export interface ClientSubscriptionSource {
  readonly stateDirectory: StateDirectory;
  readonly logger: StateLogger;
  readonly applicationServer: string | undefined;
  readonly queryEndpoint: string | undefined;
  processId(): string;
  activeTaskIds(): readonly string[];
  standbys(): Iterable<{ readonly id: { toString(): string }; offsetSum(): number }>;
  shutdownRequested(): boolean;
}

/**
 * What a client tells the group's leader in each rebalance, as Kafka Streams' subscription
 * info: its process id and endpoints, the tasks it runs, and how much state it has of every
 * other task (checkpoints left on disk, standby positions) for lag-aware placement.
 */
export class ClientSubscription {
  private localOffsetSums: Record<string, number> = {};

  constructor(private readonly source: ClientSubscriptionSource) {}

  /** Re-reads the checkpoints of the task directories on disk; logs and keeps the last on error. */
  async refreshLocalOffsetSums(): Promise<void> {
    try {
      this.localOffsetSums = await localTaskOffsetSums(this.source.stateDirectory);
    } catch (error) {
      this.source.logger.info(`could not read local checkpoints: ${String(error)}`);
    }
  }

  /** The subscription of the rebalance starting now. */
  info(): SubscriptionInfo {
    const active = [...this.source.activeTaskIds()];
    const sums: Record<string, number> = { ...this.localOffsetSums };
    for (const standby of this.source.standbys()) sums[standby.id.toString()] = standby.offsetSum();
    for (const task of active) sums[task] = LATEST_OFFSET;
    return {
      version: 1,
      processId: this.source.processId(),
      endpoint: this.source.applicationServer,
      queryEndpoint: this.source.queryEndpoint,
      taskOffsetSums: sums,
      previousActive: active,
      shutdownRequested: this.source.shutdownRequested() || undefined,
    };
  }
}

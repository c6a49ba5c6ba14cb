import { StreamsError } from '../streams.error';

/**
 * The consumer group is rebalancing: the coordinator answered a heartbeat or an offset commit
 * with `REBALANCE_IN_PROGRESS`. The member's generation is ending; it keeps its member id.
 *
 * What to do: stop processing the generation's records, commit what was processed if the
 * group still accepts it, and let the member rejoin (the group consumer adapters rejoin by
 * themselves). Retriable: the same work may be done again in the next generation.
 */
export class RebalanceInProgressError extends StreamsError.coded('REBALANCE_IN_PROGRESS', true) {
  constructor(
    readonly groupId: string,
    options?: { cause?: unknown },
  ) {
    super(`consumer group ${groupId} is rebalancing`, options);
  }
}

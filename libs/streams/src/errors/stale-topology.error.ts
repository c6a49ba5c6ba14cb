import { StreamsError } from './streams.error';

/**
 * The streams group runs a newer topology than this instance (status `STALE_TOPOLOGY` of
 * Kafka's streams rebalance protocol, KIP-1071): the coordinator initialized the group with a
 * topology of a higher epoch, so this instance gets no tasks.
 *
 * What to do: deploy the application's current version on this instance (or give an
 * incompatible version another application id). Not retriable as it is.
 */
export class StaleTopologyError extends StreamsError.coded('STALE_TOPOLOGY', false) {
  constructor(
    readonly groupId: string,
    /** The coordinator's explanation. */
    readonly detail: string,
  ) {
    super(`streams group ${groupId} runs a newer topology than this instance: ${detail}`);
  }
}

import { StreamsError } from '../streams.error';

/**
 * A read of committed offsets with KIP-447's `require_stable` kept finding offsets of an open
 * transaction (`UNSTABLE_OFFSET_COMMIT`) until its time ran out: a producer sent offsets of
 * these partitions for the group in a transaction that neither committed nor aborted yet.
 *
 * What to do: retry; the transaction ends by its producer's commit or abort, or at the latest
 * when the coordinator aborts it after the producer's `transaction.timeout.ms`.
 */
export class UnstableOffsetsError extends StreamsError.coded('UNSTABLE_OFFSET_COMMIT', true) {
  constructor(
    readonly groupId: string,
    readonly topics: readonly string[],
    readonly waitedMs: number,
    options?: { cause?: unknown },
  ) {
    super(
      `committed offsets of consumer group ${groupId} for ${topics.join(', ')} stayed unstable (a transaction holding offsets is still open) for ${waitedMs} ms`,
      options,
    );
  }
}

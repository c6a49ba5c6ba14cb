import { StreamsError } from './streams.error';

/**
 * Internal topics of the application (changelogs, repartition topics) are missing (status
 * `MISSING_INTERNAL_TOPICS` of Kafka's streams rebalance protocol, KIP-1071). The group's
 * coordinator creates them itself; the status says so while it does, and names any creation
 * that failed. The group assigns no tasks meanwhile.
 *
 * What to do: usually nothing (retriable: the status clears once the topics exist). If it
 * lasts, read `detail`: the broker may lack the permission or the capacity to create them.
 */
export class MissingInternalTopicsError extends StreamsError.coded(
  'MISSING_INTERNAL_TOPICS',
  true,
) {
  constructor(
    readonly groupId: string,
    /** The coordinator's explanation, naming the topics (and any creation error). */
    readonly detail: string,
  ) {
    super(`streams group ${groupId} is missing internal topics: ${detail}`);
  }
}

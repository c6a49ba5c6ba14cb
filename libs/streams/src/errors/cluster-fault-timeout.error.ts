import { StreamsError } from './streams.error';

/**
 * A transient cluster fault outlasted the bound of the call it hit: a partition leader that did
 * not answer (`NOT_LEADER_OR_FOLLOWER`, `LEADER_NOT_AVAILABLE`, `NOT_ENOUGH_REPLICAS`), a group
 * or transaction coordinator that could not be found or reached (`NOT_COORDINATOR`,
 * `COORDINATOR_NOT_AVAILABLE`, `COORDINATOR_LOAD_IN_PROGRESS`), a refused or reset connection,
 * a request timeout. The engine looked the leader or coordinator up again and retried the call
 * with exponential back-off (`retry.backoff.ms` doubling up to `retry.backoff.max.ms`) for
 * `delivery.timeout.ms` (sends and transactions) or `default.api.timeout.ms` (offsets, admin
 * and group calls) before giving up with this error; its `cause` is the client's last error.
 *
 * It reaches the stream thread's uncaught-exception handler; the default handler answers
 * `REPLACE_THREAD` for it (the thread's tasks close dirty, a new member rejoins and carries on
 * from the committed offsets), so the client does not stop for a fault that ends.
 *
 * What to do: nothing when it is rare (a broker restart that took longer than the bound). When
 * it repeats, check the brokers named in the cause (down, partitioned, short of in-sync
 * replicas for `min.insync.replicas`), or raise the bound. Retriable.
 */
export class ClusterFaultTimeoutError extends StreamsError.coded('CLUSTER_FAULT_TIMEOUT', true) {
  constructor(
    /** The call that gave up, e.g. `produce to orders-changelog`. */
    readonly operation: string,
    /** The setting that bounded it, e.g. `delivery.timeout.ms`. */
    readonly bound: string,
    readonly boundMs: number,
    /** Attempts made. */
    readonly attempts: number,
    /** The last fault, e.g. `NOT_LEADER_OR_FOLLOWER`. */
    readonly fault: string,
    options?: { cause?: unknown },
  ) {
    super(
      `${operation} failed ${attempts} times over ${bound} (${boundMs} ms), last with a transient cluster fault (${fault}): the thread is replaced and carries on from the committed offsets`,
      options,
    );
  }
}

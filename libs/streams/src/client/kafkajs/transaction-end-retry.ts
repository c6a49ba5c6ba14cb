import { kafkajsTransientFault } from './kafkajs-transient-faults';

/** kafkajs' coordinator type of a transactional id (`COORDINATOR_TYPES.TRANSACTION`). */
const TRANSACTION_COORDINATOR = 1;

/**
 * How long a transaction's end is retried: Kafka's `max.block.ms` default, which bounds Java's
 * `commitTransaction()` / `abortTransaction()` while its sender retries the EndTxn.
 */
export const TRANSACTION_END_BUDGET_MS = 60_000;
const FIRST_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 1_000;

/** The arguments of kafkajs' `Cluster.findGroupCoordinator`. */
interface CoordinatorLookup {
  readonly groupId: string;
  readonly coordinatorType?: number;
}

/** A kafkajs broker, as far as ending a transaction goes. */
export interface TransactionEndingBroker {
  endTxn(request: object): Promise<unknown>;
}

/** kafkajs' `Cluster`, as far as finding a coordinator goes. */
export interface CoordinatorFindingCluster {
  findGroupCoordinator(lookup: CoordinatorLookup): Promise<TransactionEndingBroker>;
  readonly logger?: { warn(message: string, extra?: object): void };
}

/** How {@link installTransactionEndRetry} waits and for how long (tests shorten them). */
export interface TransactionEndRetryOptions {
  readonly budgetMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly now?: () => number;
}

/**
 * Makes kafkajs retry a transaction's end (EndTxn) as Java's producer does. kafkajs sends the
 * EndTxn of `commit()` / `abort()` once, to the coordinator it found just before, and leaves
 * the transaction in `COMMITTING` / `ABORTING` when it fails: one refused connection (the
 * coordinator's broker died), `NOT_COORDINATOR` (its leadership moved) or
 * `CONCURRENT_TRANSACTIONS` ends the transaction's tasks dirty and replaces the stream thread,
 * for a fault the cluster gets over in seconds.
 *
 * Replaces `Cluster.prototype.findGroupCoordinator` so that the broker it returns for a
 * transactional id sends `endTxn` again on a transient fault: after a back-off (100 ms, doubling
 * to 1 s), to the coordinator found again, within {@link TRANSACTION_END_BUDGET_MS}; any other
 * error, or the budget spent, is kafkajs' error as before. Sending the same EndTxn again is what
 * the protocol expects: a coordinator that completed or is completing it answers success or
 * `CONCURRENT_TRANSACTIONS` (retried). Every other call on that broker is the broker's own.
 */
export function installTransactionEndRetry(
  clusterClass: { prototype: CoordinatorFindingCluster },
  options: TransactionEndRetryOptions = {},
): void {
  const find = clusterClass.prototype.findGroupCoordinator;
  if ((find as { endRetryPatched?: boolean }).endRetryPatched) return; // installed already
  const patched = async function (
    this: CoordinatorFindingCluster,
    lookup: CoordinatorLookup,
  ): Promise<TransactionEndingBroker> {
    const broker = await find.call(this, lookup);
    if (lookup.coordinatorType !== TRANSACTION_COORDINATOR) return broker;
    const again = () => find.call(this, lookup);
    return retryingEnd(broker, again, this.logger, options);
  };
  clusterClass.prototype.findGroupCoordinator = Object.assign(patched, { endRetryPatched: true });
}

/** `broker` with its `endTxn` retried (see {@link installTransactionEndRetry}). */
function retryingEnd(
  broker: TransactionEndingBroker,
  findAgain: () => Promise<TransactionEndingBroker>,
  logger: CoordinatorFindingCluster['logger'],
  {
    budgetMs = TRANSACTION_END_BUDGET_MS,
    sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    now = Date.now,
  }: TransactionEndRetryOptions,
): TransactionEndingBroker {
  const endTxn = async (request: object): Promise<unknown> => {
    const deadline = now() + budgetMs;
    let target = broker;
    let backoff = FIRST_BACKOFF_MS;
    for (let attempt = 1; ; attempt++) {
      try {
        return await target.endTxn(request);
      } catch (error) {
        const fault = kafkajsTransientFault(error);
        if (!fault || now() + backoff > deadline) throw error;
        logger?.warn(
          `EndTxn failed (${fault.kind}: ${fault.reason}); sending it again to the transaction coordinator in ${backoff} ms (attempt ${attempt + 1})`,
        );
        await sleep(backoff);
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
        target = await findAgain();
      }
    }
  };
  return new Proxy(broker, {
    get(target, property) {
      if (property === 'endTxn') return endTxn;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
}

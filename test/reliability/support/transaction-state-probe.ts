import { Connection, describeTransactionsV0, findCoordinatorV6 } from '@platformatic/kafka';

/** FindCoordinator's key type of a transactional id. */
const TRANSACTION_KEY = 1;
/** States of a transaction its coordinator will time out (abort, and bump the epoch). */
const OPEN = new Set(['Ongoing', 'PrepareCommit', 'PrepareAbort']);

/**
 * Asks the transaction coordinators (DescribeTransactions) in which state the transactions of
 * some transactional ids are: a producer frozen with its transaction `Ongoing` is fenced when the
 * transaction times out, whatever else happens; one frozen between two transactions can only be
 * fenced by the group coordinator (KIP-447) or a producer of the same id.
 */
export class TransactionStateProbe {
  private readonly connections = new Map<string, Promise<Connection>>();

  constructor(private readonly brokers: readonly string[]) {}

  /** `id: state` of each of `ids` whose transaction is open (Ongoing or being completed). */
  async open(ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const bootstrap = await this.connection(this.brokers[0]);
    const { coordinators } = await findCoordinatorV6.api.async(bootstrap, TRANSACTION_KEY, [
      ...ids,
    ]);
    const byCoordinator = new Map<string, string[]>();
    for (const c of coordinators) {
      if (c.errorCode !== 0) throw new Error(`no transaction coordinator for ${c.key}`);
      const address = `${c.host}:${c.port}`;
      byCoordinator.set(address, [...(byCoordinator.get(address) ?? []), c.key]);
    }
    const open: string[] = [];
    for (const [address, keys] of byCoordinator) {
      const connection = await this.connection(address);
      // One at a time: the answer fails as a whole for an id the coordinator does not know.
      for (const key of keys) {
        const state = await describeTransactionsV0.api.async(connection, [key]).then(
          (r) => r.transactionStates[0]?.transactionState,
          (error: unknown) => {
            if (/could not be found/.test(String(error))) return undefined;
            throw error;
          },
        );
        if (state !== undefined && OPEN.has(state)) open.push(`${key}: ${state}`);
      }
    }
    return open;
  }

  async close(): Promise<void> {
    const connections = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(connections.map(async (c) => (await c).close().catch(() => undefined)));
  }

  private connection(address: string): Promise<Connection> {
    let connection = this.connections.get(address);
    if (!connection) {
      const [host, port] = [address.slice(0, address.lastIndexOf(':')), address.split(':').pop()];
      const created = new Connection('transaction-state-probe');
      connection = Promise.resolve(created.connect(host, Number(port))).then(() => created);
      this.connections.set(address, connection);
    }
    return connection;
  }
}

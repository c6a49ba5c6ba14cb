import {
  installTransactionEndRetry,
  type CoordinatorFindingCluster,
  type TransactionEndingBroker,
} from './transaction-end-retry';

/** kafkajs' errors as its protocol and network layers throw them. */
const refused = () =>
  Object.assign(new Error('Connection error: connect ECONNREFUSED'), {
    name: 'KafkaJSConnectionError',
  });
const notCoordinator = () =>
  Object.assign(new Error('This is not the correct coordinator'), {
    name: 'KafkaJSProtocolError',
    type: 'NOT_COORDINATOR',
  });
const fenced = () =>
  Object.assign(new Error('producer fenced'), {
    name: 'KafkaJSProtocolError',
    type: 'INVALID_PRODUCER_EPOCH',
  });

/** A cluster whose coordinators are the brokers given, one per lookup (the last repeats). */
function clusterClass(brokers: TransactionEndingBroker[]) {
  const lookups: number[] = [];
  class Cluster implements CoordinatorFindingCluster {
    logger = { warn: jest.fn() };
    async findGroupCoordinator({
      coordinatorType = 0,
    }: {
      groupId: string;
      coordinatorType?: number;
    }) {
      lookups.push(coordinatorType);
      return brokers[Math.min(lookups.length - 1, brokers.length - 1)];
    }
  }
  return { Cluster, lookups };
}

/** A broker whose `endTxn` answers with `outcomes` in turn (an Error is thrown). */
function broker(name: string, ...outcomes: (Error | string)[]) {
  const sent: string[] = [];
  return {
    name,
    sent,
    other: jest.fn(function (this: unknown) {
      return this;
    }),
    async endTxn(request: { transactionalId: string }) {
      sent.push(request.transactionalId);
      const outcome = outcomes.shift() ?? 'ok';
      if (outcome instanceof Error) throw outcome;
      return outcome;
    },
  };
}

const options = { sleep: async () => undefined };

describe('installTransactionEndRetry', () => {
  it('sends EndTxn again to the coordinator found again after a refused connection or NOT_COORDINATOR', async () => {
    const dead = broker('dead', refused());
    const moving = broker('moving', notCoordinator());
    const next = broker('next', 'committed');
    const { Cluster, lookups } = clusterClass([dead, moving, next]);
    installTransactionEndRetry(Cluster, options);
    const cluster = new Cluster();
    const coordinator = await cluster.findGroupCoordinator({ groupId: 'tx-1', coordinatorType: 1 });
    await expect(coordinator.endTxn({ transactionalId: 'tx-1' })).resolves.toBe('committed');
    expect([dead.sent, moving.sent, next.sent]).toEqual([['tx-1'], ['tx-1'], ['tx-1']]);
    expect(lookups).toEqual([1, 1, 1]);
    expect(cluster.logger.warn).toHaveBeenCalledTimes(2);
  });

  it('leaves errors that are not transient, the budget spent, and group coordinators as they were', async () => {
    const { Cluster } = clusterClass([broker('fenced', fenced())]);
    installTransactionEndRetry(Cluster, options);
    const coordinator = await new Cluster().findGroupCoordinator({
      groupId: 'tx',
      coordinatorType: 1,
    });
    await expect(coordinator.endTxn({ transactionalId: 'tx' })).rejects.toMatchObject({
      type: 'INVALID_PRODUCER_EPOCH',
    });

    let clock = 0;
    const down = broker('down', refused(), refused(), refused(), refused());
    const spent = clusterClass([down]);
    installTransactionEndRetry(spent.Cluster, {
      budgetMs: 250,
      now: () => clock,
      sleep: async (ms) => void (clock += ms),
    });
    const end = (
      await new spent.Cluster().findGroupCoordinator({ groupId: 'tx', coordinatorType: 1 })
    ).endTxn({ transactionalId: 'tx' });
    await expect(end).rejects.toMatchObject({ name: 'KafkaJSConnectionError' });
    expect(down.sent).toHaveLength(2); // at 0 and after 100 ms; 100 + 200 would pass 250

    const group = broker('group', refused());
    const plain = clusterClass([group]);
    installTransactionEndRetry(plain.Cluster, options);
    const found = await new plain.Cluster().findGroupCoordinator({ groupId: 'g' });
    expect(found).toBe(group);
  });

  it('keeps every other call the broker own, and installs once', async () => {
    const only = broker('only');
    const { Cluster } = clusterClass([only]);
    installTransactionEndRetry(Cluster, options);
    const patched = Cluster.prototype.findGroupCoordinator;
    installTransactionEndRetry(Cluster, options);
    expect(Cluster.prototype.findGroupCoordinator).toBe(patched);
    const coordinator = (await new Cluster().findGroupCoordinator({
      groupId: 'tx',
      coordinatorType: 1,
    })) as unknown as typeof only;
    expect(coordinator.other()).toBe(only);
    expect(coordinator.name).toBe('only');
  });
});

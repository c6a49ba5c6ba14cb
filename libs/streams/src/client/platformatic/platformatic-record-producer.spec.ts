import { NetworkError, type Producer } from '@platformatic/kafka';
import { ClusterFaultTimeoutError } from '../../errors/cluster-fault-timeout.error';
import { DEFAULT_CLUSTER_RETRY_SETTINGS } from '../cluster-retry/cluster-retry-settings';
import { PlatformaticRecordProducer } from './platformatic-record-producer';
import { platformaticClusterRetry } from './platformatic-transient-faults';

/**
 * What platformatic's producer does when the transaction coordinator's node is missing from its
 * cached metadata (it was down when the cache was last filled): every InitProducerId and EndTxn
 * fails with this error until the cache is cleared, since a metadata read without topics never
 * refreshes it.
 */
function brokerNotInMetadata(): NetworkError {
  return new NetworkError(
    'Cannot get a connection: the broker is not available in the current cluster metadata.',
    { canRetry: true, hasStaleMetadata: true },
  );
}

/** A transactional adapter whose platformatic producer lacks the coordinator until cleared. */
function producerWithStaleBrokers() {
  const retry = platformaticClusterRetry({
    ...DEFAULT_CLUSTER_RETRY_SETTINGS,
    retryBackoffMs: 1,
    retryBackoffMaxMs: 5,
    deliveryTimeoutMs: 500,
  });
  const adapter = new PlatformaticRecordProducer(
    { clientId: 'stale-brokers', bootstrapBrokers: ['127.0.0.1:1'] },
    'tx-stale-brokers',
    60_000,
    undefined,
    retry,
  );
  const inner = (adapter as unknown as { producer: Producer }).producer;
  const calls = { begins: 0, commits: 0, clears: 0 };
  let stale = false;
  inner.clearMetadata = () => {
    calls.clears++;
    stale = false;
  };
  const transaction = {
    completed: false,
    commit: async () => {
      calls.commits++;
      if (stale) throw brokerNotInMetadata();
      transaction.completed = true;
    },
    abort: async () => undefined,
    cancel: async () => undefined,
  };
  (inner as unknown as { beginTransaction: () => Promise<unknown> }).beginTransaction =
    async () => {
      calls.begins++;
      if (stale) throw brokerNotInMetadata();
      return transaction;
    };
  return {
    adapter,
    calls,
    /** From now on the coordinator is missing from the cached metadata, until it is cleared. */
    loseCoordinator: () => (stale = true),
  };
}

describe('PlatformaticRecordProducer: a transaction coordinator missing from the cached metadata', () => {
  it('EndTxn forgets the metadata after the fault and commits at the next attempt', async () => {
    const { adapter, calls, loseCoordinator } = producerWithStaleBrokers();
    await adapter.beginTransaction();
    loseCoordinator();
    await expect(adapter.commitTransaction()).resolves.toBeUndefined();
    expect(calls).toEqual({ begins: 1, commits: 2, clears: 1 });
    await adapter.disconnect();
  });

  it('InitProducerId (begin) forgets the metadata after the fault and begins at the next attempt', async () => {
    const { adapter, calls, loseCoordinator } = producerWithStaleBrokers();
    loseCoordinator();
    await expect(adapter.beginTransaction()).resolves.toBeUndefined();
    expect(calls).toEqual({ begins: 2, commits: 0, clears: 1 });
    await adapter.commitTransaction();
    await adapter.disconnect();
  });

  it('a coordinator that stays unreachable still ends in the typed timeout', async () => {
    const { adapter, loseCoordinator } = producerWithStaleBrokers();
    await adapter.beginTransaction();
    loseCoordinator();
    const inner = (adapter as unknown as { producer: Producer }).producer;
    inner.clearMetadata = () => undefined; // the broker is really gone: clearing does not help
    const error = await adapter.commitTransaction().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClusterFaultTimeoutError);
    expect((error as ClusterFaultTimeoutError).retriable).toBe(true);
    await adapter.disconnect();
  });
});

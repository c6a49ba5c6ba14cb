// Offsets added to a @platformatic/kafka producer's transaction with the consumer group's
// metadata (KIP-447): AddOffsetsToTxn to the transaction coordinator, then one TxnOffsetCommit
// (v3+: generation, member id, group instance id) to the group coordinator, sent with
// platformatic's own request writers on the producer's connections. platformatic's
// `Transaction.addOffset` is not used: it needs one of its consumers and a consumed message,
// sends one request per partition, no group instance id, and deduplicates concurrent calls
// (a second partition's offset resolves with the first one's request, never sent). Both go
// through the engine's retry policy, the coordinators looked up again when they moved.
import { offsetCommitTopics } from './platformatic-records';
import {
  addOffsetsToTxnV0,
  addOffsetsToTxnV1,
  addOffsetsToTxnV2,
  addOffsetsToTxnV3,
  addOffsetsToTxnV4,
  txnOffsetCommitV3,
  txnOffsetCommitV4,
  UnsupportedApiError,
  type Producer,
} from '@platformatic/kafka';
import type { ConsumerGroupMetadata, OffsetToCommit } from '../record-producer';
import type { ClusterRetry } from '../cluster-retry/cluster-retry';
import type { TransientFault } from '../cluster-retry/transient-fault';
import { PlatformaticCoordinators, type CoordinatorKeyType } from './platformatic-coordinators';

/** API keys, and the versions of each that this module has writers for. */
const ADD_OFFSETS_TO_TXN = {
  key: 25,
  apis: [
    addOffsetsToTxnV0,
    addOffsetsToTxnV1,
    addOffsetsToTxnV2,
    addOffsetsToTxnV3,
    addOffsetsToTxnV4,
  ],
  min: 0,
};
const TXN_OFFSET_COMMIT = { key: 28, apis: [txnOffsetCommitV3, txnOffsetCommitV4], min: 3 };

interface ApiFamily<A> {
  readonly key: number;
  readonly apis: readonly A[];
  readonly min: number;
}

/** The API of `family` at the newest version this module and the broker both speak. */
function negotiate<A>(
  family: ApiFamily<A>,
  brokerApis: readonly { apiKey: number; minVersion: number; maxVersion: number }[],
): A {
  const broker = brokerApis.find((a) => a.apiKey === family.key);
  const newest = family.min + family.apis.length - 1;
  const version = broker ? Math.min(newest, broker.maxVersion) : -1;
  if (!broker || version < Math.max(family.min, broker.minVersion)) {
    throw new UnsupportedApiError(
      `the broker speaks API ${family.key} v${broker?.minVersion}-v${broker?.maxVersion}; offsets with the group's metadata need v${family.min}-v${newest}`,
    );
  }
  return family.apis[version - family.min];
}

/**
 * Sends a transaction's offsets for a producer; one instance per producer. AddOffsetsToTxn goes
 * to the transaction coordinator, TxnOffsetCommit to the group coordinator, each found with
 * FindCoordinator ({@link PlatformaticCoordinators}) and each request retried through the
 * engine's policy (`delivery.timeout.ms`): a coordinator that moved, died or is loading
 * (NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE, COORDINATOR_LOAD_IN_PROGRESS, a refused
 * connection) is looked up again; CONCURRENT_TRANSACTIONS is waited out.
 */
export class PlatformaticTransactionOffsets {
  private readonly coordinators: PlatformaticCoordinators;

  constructor(
    private readonly producer: Producer,
    private readonly transactionalId: string,
    private readonly retry: ClusterRetry,
  ) {
    this.coordinators = new PlatformaticCoordinators(producer);
  }

  /**
   * Adds `offsets` (next offsets to read) to the producer's open transaction for `group`.
   *
   * @throws platformatic's `ResponseError` when a coordinator refuses (the caller types it),
   *   `UnsupportedApiError` for a broker without TxnOffsetCommit v3 (Kafka < 2.5),
   *   `ClusterFaultTimeoutError` when a coordinator could not be reached within
   *   `delivery.timeout.ms`.
   */
  async send(offsets: readonly OffsetToCommit[], group: ConsumerGroupMetadata): Promise<void> {
    const brokerApis = await this.producer.listApis();
    const addOffsets = negotiate(ADD_OFFSETS_TO_TXN, brokerApis);
    const commit = negotiate(TXN_OFFSET_COMMIT, brokerApis);
    const { producerId, producerEpoch } = this.producer;
    if (producerId === undefined || producerEpoch === undefined) {
      throw new Error('the producer has no transaction open');
    }
    const { transactionalId } = this;
    await this.toCoordinator(
      `AddOffsetsToTxn of ${transactionalId} for group ${group.groupId}`,
      'transaction',
      transactionalId,
      async (connection) => {
        await addOffsets.api.async(
          connection,
          transactionalId,
          producerId,
          producerEpoch,
          group.groupId,
        );
      },
    );
    const topics: txnOffsetCommitV4.TxnOffsetCommitRequestTopic[] = offsetCommitTopics(offsets);
    await this.toCoordinator(
      `TxnOffsetCommit of ${transactionalId} for group ${group.groupId}`,
      'group',
      group.groupId,
      async (connection) => {
        await commit.api.async(
          connection,
          transactionalId,
          group.groupId,
          producerId,
          producerEpoch,
          group.generationId,
          group.memberId,
          group.groupInstanceId,
          topics,
        );
      },
    );
  }

  /** `request` to the coordinator of `key`, through the retry policy. */
  private toCoordinator(
    name: string,
    type: CoordinatorKeyType,
    key: string,
    request: (
      connection: Awaited<ReturnType<PlatformaticCoordinators['connection']>>,
    ) => Promise<void>,
  ): Promise<void> {
    return this.retry.run({
      name,
      bound: 'delivery',
      attempt: async () => request(await this.coordinators.connection(type, key)),
      onFault: (fault: TransientFault) => {
        if (fault.kind !== 'busy') this.coordinators.forget(type, key);
      },
      stopped: () => this.producer.closed,
    });
  }
}

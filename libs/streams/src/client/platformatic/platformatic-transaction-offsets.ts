// Offsets added to a @platformatic/kafka producer's transaction with the consumer group's
// metadata (KIP-447): AddOffsetsToTxn to the transaction coordinator, then one TxnOffsetCommit
// (v3+: generation, member id, group instance id) to the group coordinator, sent with
// platformatic's own request writers on the producer's connections. platformatic's
// `Transaction.addOffset` is not used: it needs one of its consumers and a consumed message,
// sends one request per partition, no group instance id, and deduplicates concurrent calls
// (a second partition's offset resolves with the first one's request, never sent).
import { offsetCommitTopics } from './platformatic-records';
import {
  addOffsetsToTxnV0,
  addOffsetsToTxnV1,
  addOffsetsToTxnV2,
  addOffsetsToTxnV3,
  addOffsetsToTxnV4,
  findCoordinatorV4,
  findCoordinatorV5,
  findCoordinatorV6,
  txnOffsetCommitV3,
  txnOffsetCommitV4,
  UnsupportedApiError,
  type Connection,
  type Producer,
} from '@platformatic/kafka';
import type { ConsumerGroupMetadata, OffsetToCommit } from '../record-producer';
import { hasKafkaError } from './platformatic-producer-errors';

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
const FIND_COORDINATOR = {
  key: 10,
  apis: [findCoordinatorV4, findCoordinatorV5, findCoordinatorV6],
  min: 4,
};
/** FindCoordinator's key type of a consumer group. */
const GROUP_KEY_TYPE = 0;

/** Errors after which the same request is sent again, after a short pause. */
const RETRY_LATER = ['CONCURRENT_TRANSACTIONS', 'COORDINATOR_LOAD_IN_PROGRESS'];
/** Errors after which the group coordinator is looked up again. */
const LOOK_UP_AGAIN = ['NOT_COORDINATOR', 'COORDINATOR_NOT_AVAILABLE'];
const ATTEMPTS = 20;
const PAUSE_MS = 100;

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

/** Sends a transaction's offsets for a producer; one instance per producer. */
export class PlatformaticTransactionOffsets {
  private readonly groupCoordinators = new Map<string, number>();

  constructor(
    private readonly producer: Producer,
    private readonly transactionalId: string,
  ) {}

  /**
   * Adds `offsets` (next offsets to read) to the producer's open transaction for `group`.
   *
   * @throws platformatic's `ResponseError` when a coordinator refuses (the caller types it),
   *   `UnsupportedApiError` for a broker without TxnOffsetCommit v3 (Kafka < 2.5).
   */
  async send(offsets: readonly OffsetToCommit[], group: ConsumerGroupMetadata): Promise<void> {
    const brokerApis = await this.producer.listApis();
    const addOffsets = negotiate(ADD_OFFSETS_TO_TXN, brokerApis);
    const commit = negotiate(TXN_OFFSET_COMMIT, brokerApis);
    const { producerId, producerEpoch, coordinatorId } = this.producer;
    if (producerId === undefined || producerEpoch === undefined || coordinatorId === undefined) {
      throw new Error('the producer has no transaction open');
    }
    await this.retrying(async () => {
      const connection = await this.connectionTo(coordinatorId);
      await addOffsets.api.async(
        connection,
        this.transactionalId,
        producerId,
        producerEpoch,
        group.groupId,
      );
    });
    const topics: txnOffsetCommitV4.TxnOffsetCommitRequestTopic[] = offsetCommitTopics(offsets);
    await this.retrying(async () => {
      const coordinator = await this.groupCoordinator(group.groupId, brokerApis);
      try {
        await commit.api.async(
          await this.connectionTo(coordinator),
          this.transactionalId,
          group.groupId,
          producerId,
          producerEpoch,
          group.generationId,
          group.memberId,
          group.groupInstanceId,
          topics,
        );
      } catch (error) {
        if (hasKafkaError(error, LOOK_UP_AGAIN)) this.groupCoordinators.delete(group.groupId);
        throw error;
      }
    });
  }

  /** Runs `request` until it succeeds, fails for good, or {@link ATTEMPTS} are spent. */
  private async retrying(request: () => Promise<void>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await request();
        return;
      } catch (error) {
        const again = hasKafkaError(error, [...RETRY_LATER, ...LOOK_UP_AGAIN]);
        if (!again || attempt >= ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
      }
    }
  }

  private async groupCoordinator(
    groupId: string,
    brokerApis: Parameters<typeof negotiate>[1],
  ): Promise<number> {
    const known = this.groupCoordinators.get(groupId);
    if (known !== undefined) return known;
    const find = negotiate(FIND_COORDINATOR, brokerApis);
    const metadata = await this.producer.metadata({ topics: [] });
    const any = metadata.brokers.get(metadata.controllerId) ?? [...metadata.brokers.values()][0];
    const response = await find.api.async(
      await this.producer.connections.get(any),
      GROUP_KEY_TYPE,
      [groupId],
    );
    const nodeId = response.coordinators.find((c) => c.key === groupId)?.nodeId;
    if (nodeId === undefined) throw new Error(`no coordinator named for group ${groupId}`);
    this.groupCoordinators.set(groupId, nodeId);
    return nodeId;
  }

  private async connectionTo(nodeId: number): Promise<Connection> {
    let metadata = await this.producer.metadata({ topics: [] });
    if (!metadata.brokers.has(nodeId)) {
      metadata = await this.producer.metadata({ topics: [], forceUpdate: true });
    }
    const broker = metadata.brokers.get(nodeId);
    if (broker === undefined) throw new Error(`broker ${nodeId} is not in the cluster metadata`);
    return this.producer.connections.get(broker);
  }
}

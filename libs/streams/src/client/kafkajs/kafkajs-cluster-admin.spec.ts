// First: it loads kafkajs through the module that installs the engine's fixes.
import { KafkajsClusterAdmin } from './kafkajs-cluster-admin';
import type { Admin } from 'kafkajs';
import {
  KafkaJSAggregateError,
  KafkaJSConnectionError,
  KafkaJSDeleteGroupsError,
  KafkaJSNumberOfRetriesExceeded,
  KafkaJSProtocolError,
} from 'kafkajs';
import { BrokersUnreachableError } from '../../errors/brokers-unreachable.error';
import { GroupNotDeletedError } from '../../errors/internals/group-not-deleted.error';
import { PartitionLeaderNotAvailableError } from '../../errors/internals/partition-leader-not-available.error';
import { UnknownTopicError } from '../../errors/internals/unknown-topic.error';

// What kafkajs' admin does is checked against the broker (kafkajs-cluster-admin.broker.spec.ts);
// these are the answers a single broker cannot be made to give on demand.

/** A kafkajs protocol error of a Kafka error type, as kafkajs' decoders throw it. */
function protocolError(type: string, message = type): KafkaJSProtocolError {
  return new KafkaJSProtocolError(Object.assign(new Error(message), { type, retriable: false }));
}

function adminWith(methods: Partial<Record<keyof Admin, unknown>>): Admin {
  return methods as unknown as Admin;
}

describe('KafkajsClusterAdmin', () => {
  it('creates topics without kafkajs waitForLeaders, each with its own configs', async () => {
    const requests: unknown[] = [];
    const admin = new KafkajsClusterAdmin(
      adminWith({ createTopics: async (request: unknown) => void requests.push(request) }),
    );
    await admin.createTopics([
      {
        topic: 'a',
        partitions: 3,
        replicationFactor: -1,
        configs: { 'cleanup.policy': 'compact' },
      },
      { topic: 'b', partitions: 1, replicationFactor: 1, configs: {} },
    ]);
    expect(requests).toEqual([
      {
        topics: [
          {
            topic: 'a',
            numPartitions: 3,
            replicationFactor: -1,
            configEntries: [{ name: 'cleanup.policy', value: 'compact' }],
          },
          { topic: 'b', numPartitions: 1, replicationFactor: 1, configEntries: [] },
        ],
        waitForLeaders: false,
      },
    ]);
  });

  it('accepts topics another client created meanwhile, and rethrows other refusals', async () => {
    const exists = new KafkaJSAggregateError('Topic creation errors', [
      protocolError('TOPIC_ALREADY_EXISTS', 'Topic with this name already exists'),
    ]);
    const refused = new KafkaJSAggregateError('Topic creation errors', [
      protocolError('INVALID_REPLICATION_FACTOR', 'Replication-factor is invalid'),
    ]);
    const failing = (error: Error) =>
      new KafkajsClusterAdmin(adminWith({ createTopics: () => Promise.reject(error) }));
    const topic = { topic: 'a', partitions: 1, replicationFactor: 9, configs: {} };
    await expect(failing(exists).createTopics([topic])).resolves.toBeUndefined();
    await expect(failing(refused).createTopics([topic])).rejects.toBe(refused);
  });

  it('types an unknown topic and moving leadership, even wrapped by kafkajs retries', async () => {
    const unknown = new KafkaJSNumberOfRetriesExceeded(
      protocolError('UNKNOWN_TOPIC_OR_PARTITION'),
      { retryCount: 5, retryTime: 100 },
    );
    const leaderless = protocolError('NOT_LEADER_OR_FOLLOWER');
    const other = protocolError('TOPIC_AUTHORIZATION_FAILED');
    const failing = (error: Error) =>
      new KafkajsClusterAdmin(
        adminWith({
          fetchTopicOffsets: () => Promise.reject(error),
          fetchTopicMetadata: () => Promise.reject(error),
        }),
      );

    const unknownError = await failing(unknown)
      .fetchTopicOffsets('t')
      .catch((e: unknown) => e);
    expect(unknownError).toBeInstanceOf(UnknownTopicError);
    expect(unknownError).toMatchObject({ topic: 't', cause: unknown });
    const leaderError = await failing(leaderless)
      .fetchTopicOffsets('t')
      .catch((e: unknown) => e);
    expect(leaderError).toBeInstanceOf(PartitionLeaderNotAvailableError);
    expect(leaderError).toMatchObject({ topic: 't', reason: 'NOT_LEADER_OR_FOLLOWER' });
    await expect(failing(other).fetchTopicOffsets('t')).rejects.toBe(other);
    await expect(failing(unknown).fetchTopicMetadata(['t', 'u'])).rejects.toMatchObject({
      code: 'UNKNOWN_TOPIC_OR_PARTITION',
      topic: 't, u',
    });
  });

  it("types kafkajs' failure on a topic whose metadata has no partitions yet as a moving leadership", async () => {
    // What kafkajs 2.2.4 throws when it asked for the offsets of no partition.
    const empty = new TypeError(
      "Cannot destructure property 'partitions' of 'high.pop(...)' as it is undefined.",
    );
    const admin = new KafkajsClusterAdmin(
      adminWith({ fetchTopicOffsets: () => Promise.reject(empty) }),
    );
    const error = await admin.fetchTopicOffsets('t').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartitionLeaderNotAvailableError);
    expect(error).toMatchObject({ topic: 't', reason: 'NO_PARTITIONS_IN_METADATA', cause: empty });
    // Any other TypeError is no cluster fault.
    const bug = new TypeError('x is not a function');
    await expect(
      new KafkajsClusterAdmin(
        adminWith({ fetchTopicOffsets: () => Promise.reject(bug) }),
      ).fetchTopicOffsets('t'),
    ).rejects.toBe(bug);
  });

  it('types a group that was not deleted, naming the first one', async () => {
    const error = new KafkaJSDeleteGroupsError('Error in DeleteGroups', [
      { groupId: 'g1', errorCode: 68, error: protocolError('NON_EMPTY_GROUP') },
    ]);
    const admin = new KafkajsClusterAdmin(adminWith({ deleteGroups: () => Promise.reject(error) }));
    const thrown = await admin.deleteGroups(['g1', 'g2']).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(GroupNotDeletedError);
    expect(thrown).toMatchObject({ groupId: 'g1', reason: 'not-empty', cause: error });
  });

  it('names the brokers when it cannot connect, if it knows them', async () => {
    const refused = new KafkaJSConnectionError('connect ECONNREFUSED 10.0.0.9:9092');
    const failing = (brokers?: string[]) =>
      new KafkajsClusterAdmin(adminWith({ connect: () => Promise.reject(refused) }), brokers);
    const typed = await failing(['10.0.0.9:9092'])
      .connect()
      .catch((e: unknown) => e);
    expect(typed).toBeInstanceOf(BrokersUnreachableError);
    expect(typed).toMatchObject({ brokers: ['10.0.0.9:9092'], cause: refused });
    await expect(failing().connect()).rejects.toBe(refused);
  });
});

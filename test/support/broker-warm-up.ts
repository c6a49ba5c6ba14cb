// kafkajs with the engine's fixes: @nest-streams/streams (through the test context) first.
import { randomSuffix, waitForTopicLeaders } from './kafka-test-context';
import { Kafka, logLevel } from 'kafkajs';

const DEADLINE_MS = 120_000;

/**
 * Brings a freshly started broker to the state a long-running one is in before any test runs:
 * `__consumer_offsets` and `__transaction_state` created and their coordinators loaded. A fresh
 * broker creates them on first use and answers COORDINATOR_LOAD_IN_PROGRESS, NOT_COORDINATOR or
 * NOT_LEADER_OR_FOLLOWER meanwhile, and kafkajs gives up on some of those after a few retries
 * (a transaction's TxnOffsetCommit, an admin's fetchOffsets), so the first tests of a run would
 * fail for reasons that have nothing to do with them. Each step is retried until the deadline;
 * the warm-up's topic and group are deleted afterwards (its transactional id expires).
 *
 * @throws the last error when a step still fails after two minutes: the broker is unusable.
 */
export async function warmUpBroker(brokers: string[]): Promise<void> {
  const kafka = new Kafka({
    clientId: 'nest-streams-warm-up',
    brokers,
    logLevel: logLevel.NOTHING,
  });
  const suffix = randomSuffix();
  const topic = `nest-streams-warm-up-${suffix}`;
  const groupId = `nest-streams-warm-up-${suffix}`;
  const admin = kafka.admin();
  await admin.connect();
  const deadline = Date.now() + DEADLINE_MS;
  try {
    await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: false });
    await waitForTopicLeaders(admin, topic, 1);
    const producer = kafka.producer({
      transactionalId: `nest-streams-warm-up-${suffix}`,
      idempotent: true,
      maxInFlightRequests: 1,
    });
    await retryUntil(deadline, 'a transaction with group offsets', async () => {
      await producer.connect();
      try {
        const transaction = await producer.transaction();
        try {
          await transaction.send({ topic, messages: [{ key: 'k', value: 'v' }] });
          await transaction.sendOffsets({
            consumerGroupId: groupId,
            topics: [{ topic, partitions: [{ partition: 0, offset: '1' }] }],
          });
          await transaction.commit();
        } catch (error) {
          await transaction.abort().catch(() => undefined);
          throw error;
        }
      } finally {
        await producer.disconnect();
      }
    });
    await retryUntil(deadline, 'the group offsets', async () => {
      const [offsets] = await admin.fetchOffsets({ groupId, topics: [topic] });
      if (offsets.partitions[0]?.offset !== '1') throw new Error('offset not committed yet');
    });
    await admin.deleteGroups([groupId]).catch(() => undefined);
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
  } finally {
    await admin.disconnect();
  }
}

async function retryUntil(
  deadline: number,
  what: string,
  step: () => Promise<void>,
): Promise<void> {
  for (;;) {
    try {
      await step();
      return;
    } catch (error) {
      if (Date.now() > deadline) {
        throw new Error(`broker warm-up: ${what} still failing: ${String(error)}`, {
          cause: error,
        });
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

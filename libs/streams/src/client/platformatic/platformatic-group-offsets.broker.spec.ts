// The committed offsets a new owner starts from, against the real broker: fetched stable
// (KIP-447's require_stable), they wait for a transaction that holds offsets of the partition.
import { Consumer } from '@platformatic/kafka';
import { KafkaTestContext, brokers } from '../../../../../test/support/kafka-test-context';
import { PlatformaticCoordinators } from './platformatic-coordinators';
import { stableCommittedOffsets } from './platformatic-group-offsets';
import { platformaticClusterRetry } from './platformatic-transient-faults';

describe('stableCommittedOffsets (real broker)', () => {
  const ctx = new KafkaTestContext();
  let member: Consumer;

  afterAll(async () => {
    await member?.close(true);
    await ctx.cleanup();
  });

  it("waits for a former owner's open transaction holding offsets, then answers what it committed", async () => {
    const topic = await ctx.createTopic(ctx.topicName('stable-offsets'), 2);
    const groupId = `${ctx.applicationId}-stable-group`;
    member = new Consumer({
      clientId: 'stable-offsets-spec',
      bootstrapBrokers: brokers(),
      groupId,
    });
    const sender = {
      member,
      coordinators: new PlatformaticCoordinators(member),
      retry: platformaticClusterRetry(),
    };
    // A former owner's transaction: its offsets are sent, the transaction is not ended yet.
    const producer = ctx.kafka.producer({
      transactionalId: `${ctx.applicationId}-former-owner`,
      maxInFlightRequests: 1,
      idempotent: true,
    });
    await producer.connect();
    const transaction = await producer.transaction();
    await transaction.send({ topic, messages: [{ partition: 0, value: 'x' }] });
    await transaction.sendOffsets({
      consumerGroupId: groupId,
      topics: [{ topic, partitions: [{ partition: 0, offset: '5' }] }],
    });

    let settled = false;
    const fetched = stableCommittedOffsets(sender, groupId, [
      { topic, partition: 0 },
      { topic, partition: 1 },
    ]).finally(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    // Not stable while the transaction is open: platformatic's own fetch answers at once, with
    // the offset the transaction is about to replace.
    expect(settled).toBe(false);
    const unstable = await member.listCommittedOffsets({ topics: [{ topic, partitions: [0] }] });
    expect(unstable.get(topic)?.[0]).toBe(-1n);

    await transaction.commit();
    const committed = await fetched;
    expect(committed.get(topic)?.get(0)).toBe(5n);
    expect(committed.get(topic)?.get(1)).toBe(-1n);
    await producer.disconnect();
  }, 60_000);
});

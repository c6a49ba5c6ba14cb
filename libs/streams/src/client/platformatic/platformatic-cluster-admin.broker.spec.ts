// @platformatic/kafka is an ES module: Jest loads it with Node's vm modules
// (NODE_OPTIONS=--experimental-vm-modules, as the integration script sets).
import { Admin, Consumer, Producer } from '@platformatic/kafka';
import { PlatformaticClusterAdmin } from './platformatic-cluster-admin';
import { describeClusterAdminContract } from '../../../test-support/cluster-admin.contract';
import { brokers } from '../../../../../test/support/kafka-test-context';

describeClusterAdminContract('@platformatic/kafka', () => {
  const clientId = 'cluster-admin-contract';
  let producer: Producer | undefined;
  const consumers = new Set<Consumer>();
  return {
    admin: () =>
      new PlatformaticClusterAdmin(new Admin({ clientId, bootstrapBrokers: brokers() }), brokers()),
    unreachableAdmin: (unreachable) =>
      new PlatformaticClusterAdmin(
        new Admin({ clientId, bootstrapBrokers: [unreachable], retries: 0, connectTimeout: 500 }),
        [unreachable],
      ),
    async produce(topic, partition, count) {
      producer ??= new Producer({ clientId, bootstrapBrokers: brokers() });
      await producer.send({
        messages: Array.from({ length: count }, (_, i) => ({
          topic,
          partition,
          value: Buffer.from(`v${i}`),
        })),
      });
    },
    async joinGroup(groupId, topic, offsets = {}) {
      const consumer = new Consumer({ clientId, groupId, bootstrapBrokers: brokers() });
      consumers.add(consumer);
      // consume() resolves once the consumer joined the group and has its assignment.
      const stream = await consumer.consume({ topics: [topic], autocommit: false });
      const entries = Object.entries(offsets);
      if (entries.length > 0) {
        await consumer.commit({
          offsets: entries.map(([partition, offset]) => ({
            topic,
            partition: Number(partition),
            offset: BigInt(offset),
            leaderEpoch: -1,
          })),
        });
      }
      return async () => {
        consumers.delete(consumer);
        await stream.close();
        await consumer.close();
      };
    },
    async close() {
      await producer?.close();
      for (const consumer of consumers) await consumer.close(true);
    },
  };
});

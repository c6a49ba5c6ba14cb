import { Consumer } from '@platformatic/kafka';
import { platformaticRecordProducerFactory } from './platformatic-record-producer';
import { describeRecordProducerContract } from '../../../test-support/record-producer.contract';
import { brokers } from '../../../../../test/support/kafka-test-context';

describeRecordProducerContract('@platformatic/kafka', () => ({
  producers: (clientId) =>
    platformaticRecordProducerFactory({ clientId, bootstrapBrokers: brokers() }),
  async joinGroup(groupId, topic) {
    const consumer = new Consumer({ clientId: groupId, groupId, bootstrapBrokers: brokers() });
    // consume() resolves once the consumer joined the group and has its assignment.
    const stream = await consumer.consume({ topics: [topic], autocommit: false });
    return {
      metadata: {
        groupId,
        generationId: consumer.generationId,
        memberId: consumer.memberId ?? '',
        groupInstanceId: consumer.groupInstanceId,
      },
      async leave() {
        await stream.close();
        await consumer.close();
      },
    };
  },
}));

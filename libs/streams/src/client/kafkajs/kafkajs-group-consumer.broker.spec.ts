import { KafkajsClusterAdmin } from './kafkajs-cluster-admin';
import { kafkajsGroupConsumerFactory } from './kafkajs-group-consumer';
import { describeGroupConsumerContract } from '../../../test-support/group-consumer.contract';
import { brokers, testKafka } from '../../../../../test/support/kafka-test-context';

describeGroupConsumerContract('kafkajs', () => {
  const kafka = testKafka('group-consumer-contract');
  return {
    consumers: kafkajsGroupConsumerFactory(kafka),
    async admin() {
      const admin = new KafkajsClusterAdmin(kafka.admin(), brokers());
      await admin.connect();
      return admin;
    },
    close: async () => undefined,
  };
});

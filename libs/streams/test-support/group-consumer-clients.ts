// The group consumers of each client adapter with the admin adapter of the same client, as the
// broker tests make them: the group consumer contract and the static member spec run on them.
import { Admin } from '@platformatic/kafka';
import { KafkajsClusterAdmin } from '../src/client/kafkajs/kafkajs-cluster-admin';
import { kafkajsGroupConsumerFactory } from '../src/client/kafkajs/kafkajs-group-consumer';
import { PlatformaticClusterAdmin } from '../src/client/platformatic/platformatic-cluster-admin';
import { platformaticGroupConsumerFactory } from '../src/client/platformatic/platformatic-group-consumer';
import { brokers, testKafka } from '../../../test/support/kafka-test-context';
import type { GroupConsumerContractClient } from './group-consumer.harness';

/** Each client's group consumers and admin, with `clientId`, on the broker under test. */
export const GROUP_CONSUMER_CLIENTS = {
  kafkajs: (clientId: string): GroupConsumerContractClient => {
    const kafka = testKafka(clientId);
    return {
      consumers: kafkajsGroupConsumerFactory(kafka),
      async admin() {
        const admin = new KafkajsClusterAdmin(kafka.admin(), brokers());
        await admin.connect();
        return admin;
      },
      close: async () => undefined,
    };
  },
  '@platformatic/kafka': (clientId: string): GroupConsumerContractClient => ({
    consumers: platformaticGroupConsumerFactory({ clientId, bootstrapBrokers: brokers() }),
    async admin() {
      const admin = new PlatformaticClusterAdmin(
        new Admin({ clientId, bootstrapBrokers: brokers() }),
        brokers(),
      );
      await admin.connect();
      return admin;
    },
    close: async () => undefined,
  }),
};

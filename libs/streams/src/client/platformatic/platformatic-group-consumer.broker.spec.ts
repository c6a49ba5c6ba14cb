import { Admin } from '@platformatic/kafka';
import { PlatformaticClusterAdmin } from './platformatic-cluster-admin';
import { platformaticGroupConsumerFactory } from './platformatic-group-consumer';
import { describeGroupConsumerContract } from '../../../test-support/group-consumer.contract';
import { brokers } from '../../../../../test/support/kafka-test-context';

describeGroupConsumerContract(
  '@platformatic/kafka',
  () => {
    const clientId = 'group-consumer-contract';
    return {
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
    };
  },
  { cooperative: true },
);

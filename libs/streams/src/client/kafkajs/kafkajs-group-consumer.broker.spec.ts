import { describeGroupConsumerContract } from '../../../test-support/group-consumer.contract';
import { GROUP_CONSUMER_CLIENTS } from '../../../test-support/group-consumer-clients';

describeGroupConsumerContract('kafkajs', () =>
  GROUP_CONSUMER_CLIENTS.kafkajs('group-consumer-contract'),
);

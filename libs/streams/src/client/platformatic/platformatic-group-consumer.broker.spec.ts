import { describeGroupConsumerContract } from '../../../test-support/group-consumer.contract';
import { GROUP_CONSUMER_CLIENTS } from '../../../test-support/group-consumer-clients';

describeGroupConsumerContract(
  '@platformatic/kafka',
  () => GROUP_CONSUMER_CLIENTS['@platformatic/kafka']('group-consumer-contract'),
  { cooperative: true },
);

import { kafkajsRecordProducerFactory } from './kafkajs-record-producer';
import { describeRecordProducerContract } from '../../../test-support/record-producer.contract';
import { testKafka } from '../../../../../test/support/kafka-test-context';

// kafkajs has no KIP-447: the contract checks that the adapter says so (no joinGroup).
describeRecordProducerContract('kafkajs', () => ({
  producers: (clientId) => kafkajsRecordProducerFactory(testKafka(clientId)),
}));

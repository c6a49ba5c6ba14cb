// The readers by assignment of each client adapter, as broker tests make them: the contract
// suite and the restore specs run against each.
import type { AssignedPartitionReaderFactory } from '../src/client/assigned-partition-reader';
import { kafkajsAssignedReaderFactory } from '../src/client/kafkajs/kafkajs-assigned-reader';
import { platformaticAssignedReaderFactory } from '../src/client/platformatic/platformatic-assigned-reader';
import { brokers, type KafkaTestContext } from '../../../test/support/kafka-test-context';

/** Each client's reader factory for a test's context (its brokers, its client id). */
export const ASSIGNED_READER_FACTORIES = {
  kafkajs: (ctx: KafkaTestContext) => kafkajsAssignedReaderFactory(ctx.kafka),
  '@platformatic/kafka': (ctx: KafkaTestContext) =>
    platformaticAssignedReaderFactory({
      clientId: ctx.applicationId,
      bootstrapBrokers: brokers(),
    }),
} satisfies Record<string, (ctx: KafkaTestContext) => AssignedPartitionReaderFactory>;

/** A client with a reader by assignment. */
export type AssignedReaderClient = keyof typeof ASSIGNED_READER_FACTORIES;

/** Every client with a reader by assignment, for `describe.each`. */
export const READER_CLIENTS = Object.keys(ASSIGNED_READER_FACTORIES) as AssignedReaderClient[];

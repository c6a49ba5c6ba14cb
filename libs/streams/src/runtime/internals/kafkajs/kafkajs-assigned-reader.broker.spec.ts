import { assignedReaderContract } from '../../../../test-support/assigned-reader.contract';
import { decodesBatchEnds, kafkajsAssignedReaderFactory } from './kafkajs-assigned-reader';

assignedReaderContract('kafkajs', (ctx) => kafkajsAssignedReaderFactory(ctx.kafka));

describe('kafkajs reader by assignment', () => {
  it("decodes fetches with the engine's decoder (kafkajs 2.2.4's internals found), not kafkajs' fallback", () => {
    expect(decodesBatchEnds()).toBe(true);
  });
});

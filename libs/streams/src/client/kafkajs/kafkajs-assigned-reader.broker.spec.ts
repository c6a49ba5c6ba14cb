import { ASSIGNED_READER_FACTORIES } from '../../../test-support/assigned-reader-factories';
import { assignedReaderContract } from '../../../test-support/assigned-reader.contract';
import { decodesBatchEnds } from './kafkajs-assigned-reader';

assignedReaderContract('kafkajs', ASSIGNED_READER_FACTORIES.kafkajs);

describe('kafkajs reader by assignment', () => {
  it("decodes fetches with the engine's decoder (kafkajs 2.2.4's internals found), not kafkajs' fallback", () => {
    expect(decodesBatchEnds()).toBe(true);
  });
});

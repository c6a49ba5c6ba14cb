import { assignedReaderContract } from '../../../../test-support/assigned-reader.contract';
import { brokers } from '../../../../../../test/support/kafka-test-context';
import { platformaticAssignedReaderFactory } from './platformatic-assigned-reader';

assignedReaderContract('@platformatic/kafka', (ctx) =>
  platformaticAssignedReaderFactory({ clientId: ctx.applicationId, bootstrapBrokers: brokers() }),
);

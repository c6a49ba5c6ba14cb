import { ASSIGNED_READER_FACTORIES } from '../../../test-support/assigned-reader-factories';
import { assignedReaderContract } from '../../../test-support/assigned-reader.contract';

assignedReaderContract('@platformatic/kafka', ASSIGNED_READER_FACTORIES['@platformatic/kafka']);

import { logAndContinueOnProductionError, sendToDeadLetterTopic } from '../../exception-handlers';
import { logAndContinueProcessing } from '../../processing-exception-handler';
import { resolveStreamsConfig } from '../../streams-config';
import { deadLetterTopics } from './internal-topics';

const base = { applicationId: 'app', bootstrapServers: ['k:9092'] };

describe('deadLetterTopics', () => {
  it('has none without a dead-letter topic', () => {
    expect(deadLetterTopics(resolveStreamsConfig(base))).toEqual([]);
  });

  it("names each handler's own topic and the config's, so that their partitions are known", () => {
    const config = resolveStreamsConfig({
      ...base,
      deserializationExceptionHandler: sendToDeadLetterTopic('bad-bytes'),
      processingExceptionHandler: logAndContinueProcessing({ deadLetterTopic: 'bad-records' }),
      deadLetterQueueTopic: 'dead-letters',
    });
    expect(deadLetterTopics(config)).toEqual(['bad-bytes', 'bad-records', 'dead-letters']);
    expect(
      deadLetterTopics(
        resolveStreamsConfig({
          ...base,
          productionExceptionHandler: logAndContinueOnProductionError(),
          deadLetterQueueTopic: 'dead-letters',
        }),
      ),
    ).toEqual(['dead-letters']);
  });
});

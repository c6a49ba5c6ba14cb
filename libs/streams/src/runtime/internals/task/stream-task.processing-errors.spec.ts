import { Consumed } from '../../../kstream/consumed';
import { Produced } from '../../../kstream/produced';
import { StreamsBuilder } from '../../../kstream/streams-builder';
import type { InMemoryRecordCollector } from '../../../processor/internals/in-memory-record-collector';
import { Serdes } from '../../../serde/serdes';
import type { ConsumedRecord } from '../../../client/consumed-record';
import { DEAD_LETTER_HEADERS, HandlerResponse } from '../../exception-handlers';
import {
  logAndContinueProcessing,
  type ProcessingErrorContext,
  type ProcessingExceptionHandler,
} from '../../processing-exception-handler';
import type { StreamsConfig } from '../../streams-config';
import { TestTasks } from '../../../../test-support/stream-task-test-support';

/**
 * KIP-1033's processing exception handler in a task: a mapper that throws on one value, a
 * sibling branch that does not. CONTINUE drops the record from the failing node on (the sibling
 * still gets it), counts it, and dead-letters the input record as consumed; FAIL throws.
 */
describe('StreamTask: processing errors', () => {
  const tasks = new TestTasks();
  afterAll(() => tasks.removeDirectories());

  async function task(config: Partial<StreamsConfig>) {
    const builder = new StreamsBuilder();
    const stream = builder.stream('in', Consumed.with(Serdes.String(), Serdes.String()));
    stream
      .mapValues((v) => {
        if (v === 'boom') throw new RangeError(`cannot map ${v}`);
        return v.toUpperCase();
      })
      .to('upper', Produced.with(Serdes.String(), Serdes.String()));
    stream.to('copy', Produced.with(Serdes.String(), Serdes.String()));
    const logs: string[] = [];
    const { task: t, collector } = await tasks.create(builder.build(), {
      config: { applicationId: 'errors', ...config },
      task: () => ({ log: (m) => void logs.push(m) }),
    });
    return { task: t, collector, logs };
  }

  const input = (values: string[]): ConsumedRecord[] =>
    values.map((value, i) => ({
      topic: 'in',
      partition: 0,
      offset: 10 + i,
      timestamp: 1_000 + i,
      key: Buffer.from(`k${i}`),
      value: Buffer.from(value),
      headers: { trace: 't' },
    }));
  const values = (collector: InMemoryRecordCollector, topic: string) =>
    collector.recordsFor(topic).map((r) => r.value?.toString());

  it('fails by default, naming the node, the task and the record', async () => {
    const { task: t } = await task({});
    await expect(t.process(input(['a', 'boom']))).rejects.toThrow(
      /processor 'KSTREAM-MAPVALUES-\d+' of task 0_0 failed on in-0@11: cannot map boom/,
    );
  });

  it('on CONTINUE drops the record from the failing node on, counts it, and dead-letters it', async () => {
    const {
      task: t,
      collector,
      logs,
    } = await task({
      processingExceptionHandler: logAndContinueProcessing({ deadLetterTopic: 'dlq' }),
    });
    await t.process(input(['a', 'boom', 'c']));
    expect(values(collector, 'upper')).toEqual(['A', 'C']);
    expect(values(collector, 'copy')).toEqual(['a', 'boom', 'c']);
    expect(t.metrics).toMatchObject({ processed: 3, skippedProcessing: 1, deadLettered: 1 });
    expect(t.offsetsToCommit()).toEqual([{ topic: 'in', partition: 0, offset: 13 }]);
    const [letter] = collector.recordsFor('dlq');
    expect(letter.key).toEqual(Buffer.from('k1'));
    expect(letter.value).toEqual(Buffer.from('boom'));
    const { [DEAD_LETTER_HEADERS.stacktrace]: stack, ...headers } = letter.headers ?? {};
    expect(headers).toEqual({
      trace: 't',
      [DEAD_LETTER_HEADERS.exception]: 'RangeError',
      [DEAD_LETTER_HEADERS.message]: 'cannot map boom',
      [DEAD_LETTER_HEADERS.topic]: 'in',
      [DEAD_LETTER_HEADERS.partition]: '0',
      [DEAD_LETTER_HEADERS.offset]: '11',
    });
    expect(String(stack).startsWith('RangeError: cannot map boom')).toBe(true);
    expect(logs).toEqual([
      expect.stringMatching(
        /^skipping: processor 'KSTREAM-MAPVALUES-\d+' of task 0_0 failed on in-0@11: cannot map boom \(processing error; handler: log and continue\)$/,
      ),
    ]);
  });

  it('gives a custom handler the record, the node, the task and the raw input; deadLetterQueueTopic applies', async () => {
    const seen: [ProcessingErrorContext, unknown, string][] = [];
    const handler: ProcessingExceptionHandler = {
      handle: (context, record, error) => {
        seen.push([context, record?.value, error.message]);
        return HandlerResponse.CONTINUE;
      },
    };
    const { task: t, collector } = await task({
      processingExceptionHandler: handler,
      deadLetterQueueTopic: 'all-errors',
    });
    await t.process(input(['boom']));
    expect(seen).toEqual([
      [
        {
          processorNodeId: expect.stringMatching(/^KSTREAM-MAPVALUES-\d+$/),
          taskId: '0_0',
          topic: 'in',
          partition: 0,
          offset: 10,
          headers: { trace: 't' },
          sourceRawKey: Buffer.from('k0'),
          sourceRawValue: Buffer.from('boom'),
        },
        'boom',
        'cannot map boom',
      ],
    ]);
    expect(values(collector, 'all-errors')).toEqual(['boom']);
  });

  it('fails when the handler answers RETRY, or throws itself', async () => {
    const retrying = await task({
      processingExceptionHandler: { handle: () => HandlerResponse.RETRY },
    });
    await expect(retrying.task.process(input(['boom']))).rejects.toThrow(/cannot map boom/);
    const throwing = await task({
      processingExceptionHandler: {
        handle: () => {
          throw new Error('handler bug');
        },
      },
    });
    await expect(throwing.task.process(input(['boom']))).rejects.toThrow(
      /the processing exception handler threw while handling an error of processor 'KSTREAM-MAPVALUES-\d+' of task 0_0: handler bug/,
    );
  });
});

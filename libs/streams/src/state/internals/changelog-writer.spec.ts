import { ProcessorStateError } from '../../errors/processor-state.error';
import { TaskId } from '../../processor/task-id';
import { ChangelogWriter } from './changelog-writer';
import { writeTimestamp } from './ordered-bytes';
import { testStoreContext } from '../../../test-support/store-test-support';

describe('ChangelogWriter', () => {
  it("logs to the store's changelog on the task's partition, timestamps from the record", () => {
    const context = testStoreContext({ applicationId: 'shop', taskId: new TaskId(1, 4) });
    const writer = new ChangelogWriter('counts');
    writer.bind(context);
    expect([writer.topic, writer.partition]).toEqual(['shop-counts-changelog', 4]);
    context.timestamp = 77;
    writer.log(Buffer.from('k'), Buffer.from('v'));
    writer.log(Buffer.from('k'), null, 5);
    expect(context.recordCollector.recordsFor('shop-counts-changelog', 4)).toEqual([
      expect.objectContaining({ key: Buffer.from('k'), value: Buffer.from('v'), timestamp: 77 }),
      expect.objectContaining({ key: Buffer.from('k'), value: null, timestamp: 5 }),
    ]);
  });

  it('logs a timestamped value as the plain value with its own timestamp', () => {
    const context = testStoreContext({ applicationId: 'shop' });
    const writer = new ChangelogWriter('counts', true);
    writer.bind(context);
    const stamped = Buffer.alloc(9);
    writeTimestamp(stamped, 1_234, 0);
    stamped[8] = 42;
    writer.log(Buffer.from('k'), stamped, 99);
    expect(context.recordCollector.recordsFor('shop-counts-changelog')).toEqual([
      expect.objectContaining({ value: Buffer.from([42]), timestamp: 1_234 }),
    ]);
  });

  it('refuses a context without a record collector, and logging before bind', () => {
    const writer = new ChangelogWriter('counts');
    expect(() => writer.log(Buffer.from('k'), null)).toThrow(ProcessorStateError);
    const context = { ...testStoreContext(), recordCollector: undefined };
    expect(() => writer.bind(context as never)).toThrow(/no record collector/);
  });
});

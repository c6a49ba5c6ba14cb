import type { RecordProducer } from '../../../client/record-producer';
import { promises as fs } from 'node:fs';
import { KafkaTestContext } from '../../../../../../test/support/kafka-test-context';
import {
  TaskState,
  changelogEndOffset,
  connectedProducer,
  createChangelog,
  tempStateDir,
} from '../../../../test-support/state-restore.broker-test-support';

describe('changelog with caching (real broker)', () => {
  let ctx: KafkaTestContext;
  let producer: RecordProducer;
  let stateDir: string;

  beforeEach(async () => {
    ctx = new KafkaTestContext();
    producer = await connectedProducer(ctx);
    stateDir = await tempStateDir();
    await createChangelog(ctx);
  });
  afterEach(async () => {
    await producer.disconnect();
    await ctx.cleanup();
    await fs.rm(stateDir, { recursive: true, force: true });
  });

  it('sends only flushed values to the changelog when caching is on', async () => {
    const task = new TaskState({ ctx, stateDir, sender: producer, caching: true });
    await task.open();
    await task.restore();
    for (let i = 0; i < 100; i++) task.store.put('alice', `a${i}`);
    for (let i = 0; i < 50; i++) task.store.put('bob', `b${i}`);
    task.store.delete('carol');
    expect(await changelogEndOffset(ctx)).toBe(0);

    await task.commit();
    expect(await changelogEndOffset(ctx)).toBe(3); // alice, bob, carol's tombstone

    for (let i = 0; i < 10; i++) task.store.put('alice', `again${i}`);
    await task.commit();
    expect(await changelogEndOffset(ctx)).toBe(4);
    expect(task.collector.offset(task.manager.changelogOffsets()[0].topic, 2)).toBe(3);
    await task.closeClean();
  });

  it('sends every write when caching is off', async () => {
    const task = new TaskState({ ctx, stateDir, sender: producer, caching: false });
    await task.open();
    for (let i = 0; i < 100; i++) task.store.put('alice', `a${i}`);
    await task.commit();
    expect(await changelogEndOffset(ctx)).toBe(100);
    await task.closeClean();
  });
});

import { join } from 'node:path';
import { NativeRocksDBStore } from './rocksdb/native-rocksdb.store';
import { TaskEngines } from './task-engines';
import { TransactionalBytesStore } from './transactional-bytes-store';
import { useTempDirectory } from '../../../../rocksdb/test-support/temp-directory';

const s = (text: string): Buffer => Buffer.from(text);
const root = useTempDirectory('write-bound-');

describe('TaskEngines: the writes held behind RocksDB, bounded', () => {
  let engine: NativeRocksDBStore;
  /** Each batch the engine was handed (its keys) and its gate. */
  let batches: { keys: string[]; open: () => void; written: Promise<void> }[];

  beforeEach(async () => {
    engine = new NativeRocksDBStore({ name: 's', directory: join(root(), 's') });
    await engine.open();
    batches = [];
    const write = engine.putAllAsync.bind(engine);
    jest.spyOn(engine, 'putAllAsync').mockImplementation((writes) => {
      let open!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      batches.push({
        keys: writes.map((w) => w.key.toString()),
        open,
        written: gate.then(() => write(writes)),
      });
      return batches[batches.length - 1].written;
    });
  });
  afterEach(async () => {
    for (const batch of batches) batch.open();
    await Promise.all(batches.map((b) => b.written));
    await engine.close();
  });
  /** Lets the oldest waiting batch through and waits until the store saw it written. */
  const release = async (index: number): Promise<void> => {
    batches[index].open();
    await batches[index].written;
    await new Promise((r) => setImmediate(r));
  };

  it('says when the writes held behind the batch in flight pass the bound, until they are written', async () => {
    const bounded = new TaskEngines(100);
    const held = new TransactionalBytesStore(engine, bounded);
    bounded.enlist(held);
    held.putAll([{ key: s('a'), value: Buffer.alloc(80) }]); // in flight at once: not held
    expect(bounded.overWriteBehindLimit()).toBe(false);
    held.putAll([{ key: s('b'), value: Buffer.alloc(10) }]);
    const one = bounded.uncommittedBytes();
    expect(one).toBeGreaterThan(0);
    expect(one).toBeLessThanOrEqual(100);
    expect(bounded.overWriteBehindLimit()).toBe(false);
    held.putAll([{ key: s('c'), value: Buffer.alloc(100) }]);
    expect(bounded.uncommittedBytes()).toBeGreaterThan(100);
    expect(bounded.overWriteBehindLimit()).toBe(true);

    let caughtUp = false;
    const catchingUp = bounded.writeHeld().then(() => (caughtUp = true));
    await release(0); // the batch in flight; the held writes go next
    expect(batches.map((b) => b.keys)).toEqual([['a'], ['b', 'c']]);
    expect(caughtUp).toBe(false);
    await release(1);
    await catchingUp;
    expect(bounded.overWriteBehindLimit()).toBe(false);
    expect(engine.get(s('c'))?.length).toBe(100);
  });

  it('leaves the bound of a transaction to the commit (exactly-once)', async () => {
    const bounded = new TaskEngines(10);
    const held = new TransactionalBytesStore(engine, bounded);
    bounded.enlist(held);
    await bounded.startTransactions();
    held.putAll([{ key: s('a'), value: Buffer.alloc(50) }]);
    expect(bounded.overUncommittedLimit()).toBe(true);
    expect(bounded.overWriteBehindLimit()).toBe(false);
    bounded.abort();
  });
});

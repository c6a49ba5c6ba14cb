import { join } from 'node:path';
import { NativeRocksDBStore } from './rocksdb/native-rocksdb.store';
import { TaskEngines } from './task-engines';
import { TransactionalBytesStore } from './transactional-bytes-store';
import { WriteBehindBudget } from './write-behind-budget';
import { useTempDirectory } from '../../../../rocksdb/test-support/temp-directory';

const s = (text: string): Buffer => Buffer.from(text);
const root = useTempDirectory('write-behind-budget-');

/** A RocksDB engine whose asynchronous batches wait until released, in order. */
async function gatedEngine(name: string) {
  const engine = new NativeRocksDBStore({ name, directory: join(root(), name) });
  await engine.open();
  const gates: { open: () => void; written: Promise<void> }[] = [];
  const write = engine.putAllAsync.bind(engine);
  jest.spyOn(engine, 'putAllAsync').mockImplementation((writes) => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    gates.push({ open, written: gate.then(() => write(writes)) });
    return gates[gates.length - 1].written;
  });
  const release = async (index: number): Promise<void> => {
    gates[index].open();
    await gates[index].written;
    await new Promise((r) => setImmediate(r));
  };
  return { engine, gates, release };
}

/**
 * A task of its own (far under its own bound, statestore.uncommitted.max.bytes) sharing
 * `budget`, with one enlisted store over a gated engine named `name`.
 */
async function gatedTask(name: string, budget: WriteBehindBudget) {
  const gated = await gatedEngine(name);
  const task = new TaskEngines(10_000, budget);
  const store = new TransactionalBytesStore(gated.engine, task);
  task.enlist(store);
  return { ...gated, task, store };
}

/** Expects `task`'s thread to wait (`writeHeld`) until `release` lets a batch be written. */
async function expectWaitsFor(task: TaskEngines, release: () => Promise<void>): Promise<void> {
  let caughtUp = false;
  const waiting = task.writeHeld().then(() => (caughtUp = true));
  await new Promise((r) => setImmediate(r));
  expect(caughtUp).toBe(false);
  await release();
  await waiting;
  expect(caughtUp).toBe(true);
}

describe('WriteBehindBudget: the instance-wide bound of the write-behind', () => {
  it('counts every task, batches in flight included, and makes a thread wait until under the bound', async () => {
    // One write of a 100-byte value holds 100 + its key + 64 bytes of overhead: 166.
    const budget = new WriteBehindBudget(250);
    const one = await gatedTask('one', budget);
    const two = await gatedTask('two', budget);
    const { task: taskA, store: a } = one;
    const { task: taskB, store: b } = two;

    a.putAll([{ key: s('a1'), value: Buffer.alloc(100) }]); // in flight at once
    expect(a.writingBytes).toBe(166);
    expect(budget.heldBytes()).toBe(a.writingBytes);
    expect(taskB.overWriteBehindLimit()).toBe(false);

    b.putAll([{ key: s('b1'), value: Buffer.alloc(100) }]); // task B's own batch: 332 held
    expect(budget.heldBytes()).toBe(332);
    expect(taskA.overWriteBehindLimit()).toBe(true);
    expect(taskB.overWriteBehindLimit()).toBe(true);

    // Task B's thread waits for its own batch; then the instance is back under the bound.
    await expectWaitsFor(taskB, () => two.release(0));
    expect(budget.heldBytes()).toBe(166); // task A's batch, still being written
    expect(taskA.overWriteBehindLimit()).toBe(false);
    await one.release(0);
    expect(budget.heldBytes()).toBe(0);
    expect(one.engine.get(s('a1'))?.length).toBe(100);
    expect(two.engine.get(s('b1'))?.length).toBe(100);

    taskA.leave(a);
    taskB.leave(b);
    a.putAll([{ key: s('a2'), value: Buffer.alloc(500) }]);
    expect(budget.heldBytes()).toBe(0); // engines that left are not counted
    await one.release(1);
    await one.engine.close();
    await two.engine.close();
  });

  it('makes a thread whose own task holds nothing wait for the other tasks', async () => {
    const budget = new WriteBehindBudget(150);
    const one = await gatedTask('busy', budget);
    const two = await gatedTask('idle', budget);
    const idle = two.task;
    one.store.putAll([{ key: s('a1'), value: Buffer.alloc(100) }]);
    expect(idle.overWriteBehindLimit()).toBe(true);
    await expectWaitsFor(idle, () => one.release(0));
    expect(idle.overWriteBehindLimit()).toBe(false);
    await one.engine.close();
    await two.engine.close();
  });

  it('leaves a transaction to its commit (exactly-once)', async () => {
    const budget = new WriteBehindBudget(10);
    const one = await gatedTask('eos', budget);
    const { task, store } = one;
    await task.startTransactions();
    store.putAll([{ key: s('a'), value: Buffer.alloc(50) }]);
    expect(budget.over()).toBe(true);
    expect(task.overWriteBehindLimit()).toBe(false);
    task.abort();
    await one.engine.close();
  });
});

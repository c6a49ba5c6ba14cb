import { join } from 'node:path';
import { describeBytesStoreContract } from '../../../test-support/bytes-store.contract';
import { NativeRocksDBStore } from './rocksdb/native-rocksdb.store';
import { TaskEngines } from './task-engines';
import { TransactionalBytesStore } from './transactional-bytes-store';
import { useTempDirectory } from '../../../../rocksdb/test-support/temp-directory';

const s = (text: string): Buffer => Buffer.from(text);
const text = (entries: Iterable<{ key: Buffer; value: Buffer }>): string[] =>
  [...entries].map((e) => `${e.key.toString()}=${e.value.toString()}`);

/**
 * The contract with every write held in the pending batch: the runtime commits the batch
 * before the flushes and clean closes of the contract, as it does after each transaction.
 */
class CommittingOnFlush extends TransactionalBytesStore {
  constructor(
    inner: NativeRocksDBStore,
    private readonly taskEngines: TaskEngines,
  ) {
    super(inner, taskEngines);
  }
  override async flush(): Promise<void> {
    await super.flush(); // throws once closed
    await this.taskEngines.commit();
    await this.flushEngine();
  }
  override async close(): Promise<void> {
    await this.taskEngines.commit();
    await super.close();
  }
}

describeBytesStoreContract('TransactionalBytesStore (writes pending until commit)', (name, dir) => {
  const engines = new TaskEngines();
  void engines.startTransactions(); // no engine enlisted yet: done at once
  return new CommittingOnFlush(new NativeRocksDBStore({ name, directory: dir }), engines);
});

describeBytesStoreContract(
  'TransactionalBytesStore (at-least-once: writes behind)',
  (name, dir) =>
    new TransactionalBytesStore(
      new NativeRocksDBStore({ name, directory: dir }),
      new TaskEngines(),
    ),
);

const root = useTempDirectory('transactional-');

describe('TransactionalBytesStore', () => {
  let engines: TaskEngines;
  let engine: NativeRocksDBStore;
  let store: TransactionalBytesStore;

  beforeEach(async () => {
    engines = new TaskEngines();
    engine = new NativeRocksDBStore({ name: 's', directory: join(root(), 's') });
    store = new TransactionalBytesStore(engine, engines);
    await store.open();
  });
  afterEach(async () => {
    await store.close();
  });

  it("reports the RocksDB engine's figures (the metered store reads them through it)", () => {
    store.putAll([{ key: s('a'), value: s('1') }]);
    expect(store.metrics).toBeDefined();
    expect(Object.keys(store.metrics!()).sort()).toEqual(Object.keys(engine.metrics()).sort());
    expect(store.metrics!().estimatedNumKeys).toBe(engine.metrics().estimatedNumKeys);
  });

  it('writes behind before the transactions start (or at-least-once), and defers flushes', async () => {
    store.putAll([{ key: s('a'), value: s('1') }]);
    expect(store.get(s('a'))).toEqual(s('1'));
    await store.writeHeld();
    expect(engine.get(s('a'))).toEqual(s('1'));
    expect(store.uncommittedBytes).toBe(0);
    await store.flush();
    expect(engine.metrics().totalSstFilesBytes).toBe(0);
    await engines.flush();
    expect(engine.metrics().totalSstFilesBytes).toBeGreaterThan(0);
  });

  it('keeps transaction writes out of the engine, readable, until the commit', async () => {
    store.putAll([
      { key: s('a'), value: s('1') },
      { key: s('c'), value: s('3') },
      { key: s('e'), value: s('5') },
    ]);
    await engines.startTransactions();
    store.put(s('b'), s('2'));
    store.put(s('c'), null);
    store.put(s('e'), s('55'));
    expect(store.delete(s('a'))).toEqual(s('1'));
    expect(store.putIfAbsent(s('a'), s('new'))).toBeUndefined();
    expect(store.putIfAbsent(s('b'), s('x'))).toEqual(s('2'));

    // The engine still holds the committed state...
    expect(text(engine.all())).toEqual(['a=1', 'c=3', 'e=5']);
    // ...every read of the store sees the transaction's writes over it.
    expect(store.get(s('c'))).toBeUndefined();
    expect(await store.getAsync(s('e'))).toEqual(s('55'));
    expect(store.getMany([s('e'), s('z'), s('a'), s('c')])).toEqual([
      s('55'),
      undefined,
      s('new'),
      undefined,
    ]);
    expect(await store.getManyAsync([s('b'), s('c'), s('x')])).toEqual([
      s('2'),
      undefined,
      undefined,
    ]);
    expect(text(store.all())).toEqual(['a=new', 'b=2', 'e=55']);
    expect(text(store.reverseAll())).toEqual(['e=55', 'b=2', 'a=new']);
    expect(text(store.range(s('b'), s('d')))).toEqual(['b=2']);
    expect(text(store.reverseRange(s('a'), s('b')))).toEqual(['b=2', 'a=new']);
    expect(text(await store.rangeAsync(s('a'), s('e'), true))).toEqual(['e=55', 'b=2', 'a=new']);
    expect(text(store.prefixScan(s('e')))).toEqual(['e=55']);
    expect(text(await store.prefixScanAsync(s('a')))).toEqual(['a=new']);
    expect(store.uncommittedBytes).toBeGreaterThan(0);
    expect(engines.uncommittedBytes()).toBe(store.uncommittedBytes);

    await engines.commit();
    expect(store.uncommittedBytes).toBe(0);
    expect(text(store.all())).toEqual(['a=new', 'b=2', 'e=55']);
    // The engine writes the batch in the background; a flush waits for it.
    await engines.flush();
    expect(text(engine.all())).toEqual(['a=new', 'b=2', 'e=55']);
  });

  it('drops uncommitted writes on abort and on close', async () => {
    store.put(s('kept'), s('1'));
    await engines.startTransactions();
    store.put(s('lost'), s('2'));
    engines.abort();
    expect(store.get(s('lost'))).toBeUndefined();
    store.put(s('lost-at-close'), s('3'));
    await store.close();
    await store.open();
    expect(text(store.all())).toEqual(['kept=1']);
  });

  it('counts the bytes waiting, replacing a key’s earlier write', async () => {
    await engines.startTransactions();
    store.put(s('k'), Buffer.alloc(100));
    const one = store.uncommittedBytes;
    expect(one).toBeGreaterThanOrEqual(101);
    store.put(s('k'), Buffer.alloc(10));
    expect(store.uncommittedBytes).toBe(one - 90);
    store.put(s('k'), null);
    expect(store.uncommittedBytes).toBe(one - 100);
  });

  it('writes nothing of a batch with a bad key, and refuses writes once closed', async () => {
    await engines.startTransactions();
    expect(() =>
      store.putAll([
        { key: s('ok'), value: s('1') },
        { key: 'bad' as unknown as Buffer, value: s('2') },
      ]),
    ).toThrow(TypeError);
    expect(store.uncommittedBytes).toBe(0);
    await store.close();
    expect(() => store.put(s('x'), s('1'))).toThrow(/is not open/);
  });

  it('attaches the registry to a task’s configs without showing it to config setters', () => {
    const configs = engines.attachTo({ applicationId: 'app' });
    expect(TaskEngines.of(configs)).toBe(engines);
    expect(Object.keys(configs)).toEqual(['applicationId']);
    expect({ ...configs }).toEqual({ applicationId: 'app' });
    expect(TaskEngines.of({ applicationId: 'app' })).toBeUndefined();
  });

  describe('at-least-once: writes behind, one batch at a time', () => {
    /** Each batch the engine was handed: its writes, its gate, and its write once let through. */
    let batches: { writes: string[]; open: () => void; written: Promise<void>; opened?: boolean }[];
    let failWith: Error | undefined;

    beforeEach(() => {
      batches = [];
      failWith = undefined;
      const write = engine.putAllAsync.bind(engine);
      jest.spyOn(engine, 'putAllAsync').mockImplementation((writes) => {
        let open!: () => void;
        const gate = new Promise<void>((resolve) => (open = resolve));
        const written = gate.then(() => (failWith ? Promise.reject(failWith) : write(writes)));
        batches.push({
          writes: writes.map((w) => `${w.key.toString()}=${w.value?.toString() ?? '-'}`),
          open,
          written,
        });
        return written;
      });
    });
    afterEach(() => {
      failWith = undefined;
      for (const batch of batches) batch.open();
    });
    const listed = (): string[][] => batches.map((b) => b.writes);
    /** Lets the oldest waiting batch through and waits until the store saw it written. */
    const release = async (): Promise<void> => {
      const batch = batches.find((b) => !b.opened);
      batch!.open();
      batch!.opened = true;
      await batch!.written.catch(() => undefined);
      await new Promise((r) => setImmediate(r));
    };

    it('estimates entries with the batch in flight counted once, whether the engine counts it yet or not', async () => {
      store.putAll(['a', 'b', 'c'].map((k) => ({ key: s(k), value: s('1') })));
      store.putAll(['d', 'e'].map((k) => ({ key: s(k), value: s('1') }))); // pending behind it
      expect(listed()).toEqual([['a=1', 'b=1', 'c=1']]);
      const estimate = jest.spyOn(engine, 'approximateNumEntries').mockReturnValue(0);
      expect(store.approximateNumEntries()).toBe(5); // not in the engine yet: 3 + 2 pending
      estimate.mockReturnValue(3); // in the engine, its completion not seen yet
      expect(store.approximateNumEntries()).toBe(5);
      estimate.mockReturnValue(1000);
      expect(store.approximateNumEntries()).toBe(1002);
      estimate.mockRestore();
      await release();
      await release();
      expect(listed()).toEqual([
        ['a=1', 'b=1', 'c=1'],
        ['d=1', 'e=1'],
      ]);
    });

    it('hands writes to the engine in batches, each readable until written, in write order', async () => {
      store.putAll([
        { key: s('b'), value: s('1') },
        { key: s('a'), value: s('1') },
      ]);
      // The first batch is in flight; later writes wait for it and then go as one batch.
      store.put(s('a'), s('2'));
      store.put(s('c'), s('3'));
      store.delete(s('b'));
      expect(listed()).toEqual([['b=1', 'a=1']]);
      expect(engine.get(s('a'))).toBeUndefined();
      expect(store.getMany([s('a'), s('b'), s('c'), s('d')]).map((v) => v?.toString())).toEqual([
        '2',
        undefined,
        '3',
        undefined,
      ]);
      expect(text(store.all())).toEqual(['a=2', 'c=3']);
      expect(text(store.reverseRange(s('a'), s('b')))).toEqual(['a=2']);
      expect(text(await store.prefixScanAsync(s('b')))).toEqual([]);

      // A flush waits for every write made before it: both batches.
      let flushed = false;
      const flushing = engines.flush().then(() => (flushed = true));
      await release();
      expect(listed()).toEqual([
        ['b=1', 'a=1'],
        ['a=2', 'c=3', 'b=-'],
      ]);
      expect(engine.get(s('b'))?.toString()).toBe('1');
      expect(store.get(s('b'))).toBeUndefined();
      expect(flushed).toBe(false);
      await release();
      await flushing;
      expect(text(engine.all())).toEqual(['a=2', 'c=3']);
      expect(text(store.all())).toEqual(['a=2', 'c=3']);
    });

    it('writes what is held on close, so a reopened store has it', async () => {
      store.put(s('a'), s('1'));
      store.put(s('b'), s('2'));
      const closing = store.close();
      await release();
      await release();
      await closing;
      store = new TransactionalBytesStore(
        new NativeRocksDBStore({ name: 's', directory: join(root(), 's') }),
        engines,
      );
      await store.open();
      expect(text(store.all())).toEqual(['a=1', 'b=2']);
    });

    it('writes the held writes before a restore batch and before the transactions start', async () => {
      store.put(s('a'), s('1'));
      const restoring = store.putAllAsync([{ key: s('a'), value: s('restored') }]);
      await release();
      await release();
      await restoring;
      expect(engine.get(s('a'))?.toString()).toBe('restored');

      store.put(s('b'), s('2'));
      const starting = engines.startTransactions();
      expect(engines.transactions).toBe(false);
      await release();
      await starting;
      expect(engines.transactions).toBe(true);
      engines.abort(); // drops only writes made inside a transaction
      expect(engine.get(s('b'))?.toString()).toBe('2');
    });

    it('throws a failed write at the next write and flush; the failed batch stays readable', async () => {
      failWith = new Error('disk full');
      store.put(s('a'), s('1'));
      store.put(s('b'), s('2'));
      await release();
      expect(() => store.put(s('c'), s('3'))).toThrow('disk full');
      await expect(engines.flush()).rejects.toThrow('disk full');
      expect(store.get(s('a'))?.toString()).toBe('1');
      expect(store.get(s('b'))?.toString()).toBe('2');
      expect(store.get(s('c'))).toBeUndefined();
      expect(engine.get(s('a'))).toBeUndefined();
      failWith = undefined;
    });
  });

  describe('a committed batch while the engine writes it', () => {
    let release: () => void;
    let failWith: Error | undefined;

    beforeEach(async () => {
      failWith = undefined;
      const write = engine.putAllAsync.bind(engine);
      jest.spyOn(engine, 'putAllAsync').mockImplementation(async (writes) => {
        await new Promise<void>((resolve) => (release = resolve));
        if (failWith) throw failWith;
        return write(writes);
      });
      await engines.startTransactions();
    });

    it('is read between the open transaction and the engine until the engine wrote it', async () => {
      store.putAll([
        { key: s('a'), value: s('1') },
        { key: s('b'), value: s('2') },
      ]);
      await engines.commit();
      expect(engine.get(s('a'))).toBeUndefined(); // not in RocksDB yet
      expect(store.get(s('a'))?.toString()).toBe('1');
      expect(store.getMany([s('b'), s('c')]).map((v) => v?.toString())).toEqual(['2', undefined]);
      expect(text(store.all())).toEqual(['a=1', 'b=2']);
      expect(text(await store.rangeAsync(undefined, undefined))).toEqual(['a=1', 'b=2']);

      // The next transaction's writes lie over it; its abort leaves the committed batch.
      store.putAll([
        { key: s('a'), value: s('3') },
        { key: s('b'), value: null },
      ]);
      expect(text(store.range(s('a'), s('z')))).toEqual(['a=3']);
      expect((await store.getManyAsync([s('a'), s('b')])).map((v) => v?.toString())).toEqual([
        '3',
        undefined,
      ]);
      engines.abort();
      expect(text(store.reverseAll())).toEqual(['b=2', 'a=1']);
      expect(text(store.prefixScan(s('b')))).toEqual(['b=2']);

      // A flush (before a checkpoint) waits for the write.
      let flushed = false;
      const flushing = engines.flush().then(() => (flushed = true));
      await new Promise((r) => setTimeout(r, 20));
      expect(flushed).toBe(false);
      release();
      await flushing;
      expect(engine.get(s('a'))?.toString()).toBe('1');
      expect(text(store.all())).toEqual(['a=1', 'b=2']);
    });

    it('throws a failed write at the next commit and flush, and keeps the batch readable', async () => {
      failWith = new Error('disk full');
      store.putAll([{ key: s('a'), value: s('1') }]);
      await engines.commit();
      release();
      store.putAll([{ key: s('c'), value: s('9') }]);
      await expect(engines.commit()).rejects.toThrow('disk full');
      await expect(engines.flush()).rejects.toThrow('disk full');
      expect(store.get(s('a'))?.toString()).toBe('1');
      expect(engine.get(s('a'))).toBeUndefined();
    });
  });
});

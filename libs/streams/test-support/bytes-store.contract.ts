import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { BytesStore, KeyValueBytes } from '../src/state/bytes-store';

/** Creates a closed store named `name` that keeps its files (if any) under `directory`. */
export type BytesStoreFactory = (name: string, directory: string) => BytesStore;

const b = (...bytes: number[]): Buffer => Buffer.from(bytes);
const s = (text: string): Buffer => Buffer.from(text, 'utf8');
const hex = (entries: readonly KeyValueBytes[]): string[] =>
  entries.map((entry) => entry.key.toString('hex'));
const text = (entries: readonly KeyValueBytes[]): string[] =>
  entries.map((entry) => `${entry.key.toString()}=${entry.value.toString()}`);

/**
 * Defines the bytes-store contract tests (Jest) for one engine. Call it from the engine's
 * `*.spec.ts`. Reads go through the synchronous API where `capabilities.syncReads` allows it
 * and through the asynchronous API always; sync-only tests run only where supported. Each test
 * gets a fresh directory under `os.tmpdir()`, removed afterwards.
 */
export function describeBytesStoreContract(engine: string, createStore: BytesStoreFactory): void {
  describe(`${engine}: bytes-store contract`, () => {
    let directory: string;
    let store: BytesStore;
    let extraStores: BytesStore[];

    const open = async (name = 'contract-store'): Promise<BytesStore> => {
      const created = createStore(name, join(directory, name));
      extraStores.push(created);
      await created.open();
      return created;
    };
    const read = async (key: Buffer): Promise<Buffer | undefined> =>
      store.capabilities.syncReads ? store.get(key) : store.getAsync(key);
    const scan = async (
      from: Buffer | undefined,
      to: Buffer | undefined,
      reverse = false,
    ): Promise<KeyValueBytes[]> => {
      const viaAsync = await store.rangeAsync(from, to, reverse);
      if (store.capabilities.syncReads) {
        const viaSync = [...(reverse ? store.reverseRange(from, to) : store.range(from, to))];
        expect(hex(viaSync)).toEqual(hex(viaAsync));
      }
      return viaAsync;
    };
    const prefix = async (bytes: Buffer): Promise<KeyValueBytes[]> => {
      const viaAsync = await store.prefixScanAsync(bytes);
      if (store.capabilities.syncReads) {
        expect(hex([...store.prefixScan(bytes)])).toEqual(hex(viaAsync));
      }
      return viaAsync;
    };
    const putStrings = (...keys: string[]): void =>
      store.putAll(keys.map((key) => ({ key: s(key), value: s(key.toUpperCase()) })));

    beforeEach(async () => {
      directory = mkdtempSync(join(tmpdir(), 'bytes-store-contract-'));
      extraStores = [];
      store = await open();
    });

    afterEach(async () => {
      for (const created of extraStores) {
        await created.close().catch(() => undefined);
      }
      rmSync(directory, { recursive: true, force: true });
    });

    it('puts, overwrites, gets and misses', async () => {
      store.put(s('a'), s('1'));
      store.put(s('a'), s('2'));
      store.put(s('b'), Buffer.alloc(0));
      expect((await read(s('a')))?.toString()).toBe('2');
      expect((await store.getAsync(s('a')))?.toString()).toBe('2');
      expect((await read(s('b')))?.length).toBe(0);
      expect(await read(s('missing'))).toBeUndefined();
      expect(await store.getAsync(s('missing'))).toBeUndefined();
    });

    it('deletes with a null put', async () => {
      store.put(s('a'), s('1'));
      store.put(s('a'), null);
      store.put(s('never'), null);
      expect(await read(s('a'))).toBeUndefined();
      expect(await scan(undefined, undefined)).toEqual([]);
    });

    it('accepts the empty key as the smallest key', async () => {
      store.put(Buffer.alloc(0), s('empty'));
      store.put(b(0x00), s('zero'));
      expect((await read(Buffer.alloc(0)))?.toString()).toBe('empty');
      expect((await store.getManyAsync([b(0x00), Buffer.alloc(0)])).map(String)).toEqual([
        'zero',
        'empty',
      ]);
      expect(hex(await scan(undefined, undefined))).toEqual(['', '00']);
      expect(hex(await scan(undefined, Buffer.alloc(0)))).toEqual(['']);
      expect(hex(await scan(Buffer.alloc(0), b(0x00), true))).toEqual(['00', '']);
    });

    it('returns getMany results in key order, with misses and repeats', async () => {
      putStrings('a', 'b', 'c');
      const keys = [s('c'), s('x'), s('a'), s('c')];
      const expected = ['C', undefined, 'A', 'C'];
      const asText = (values: (Buffer | undefined)[]): (string | undefined)[] =>
        values.map((value) => value?.toString());
      expect(asText(await store.getManyAsync(keys))).toEqual(expected);
      expect(await store.getManyAsync([])).toEqual([]);
      if (store.capabilities.syncReads) {
        expect(asText(store.getMany(keys))).toEqual(expected);
        expect(store.getMany([])).toEqual([]);
      }
    });

    it('applies putAll as one batch, deletes included, later writes winning', async () => {
      putStrings('a', 'b', 'c');
      store.putAll([
        { key: s('a'), value: null },
        { key: s('d'), value: s('1') },
        { key: s('d'), value: s('2') },
        { key: s('b'), value: s('B2') },
        { key: s('e'), value: s('E') },
        { key: s('e'), value: null },
      ]);
      expect(text(await scan(undefined, undefined))).toEqual(['b=B2', 'c=C', 'd=2']);
    });

    it('writes nothing of a putAll that fails validation', async () => {
      const bad = [
        { key: s('x'), value: s('1') },
        { key: s('y'), value: 'not a buffer' as unknown as Buffer },
      ];
      expect(() => store.putAll(bad)).toThrow(TypeError);
      expect(await read(s('x'))).toBeUndefined();
    });

    it('applies putAllAsync (where the engine has it) like putAll, in order, validated', async () => {
      if (!store.putAllAsync) return; // optional: restores then use putAll
      putStrings('a', 'b', 'c');
      const writes = [
        { key: s('a'), value: null },
        { key: s('d'), value: s('1') },
        { key: s('d'), value: s('2') },
        { key: s('b'), value: s('B2') },
      ];
      const written = store.putAllAsync(writes);
      // A write made before it resolves lands after it or is refused; it never lands first.
      let refused = false;
      try {
        store.putAll([{ key: s('d'), value: s('3') }]);
      } catch (error) {
        expect(String(error)).toMatch(/await it/);
        refused = true;
      }
      await written;
      expect(text(await scan(undefined, undefined))).toEqual([
        'b=B2',
        'c=C',
        refused ? 'd=2' : 'd=3',
      ]);
      const bad = [
        { key: s('x'), value: s('1') },
        { key: s('y'), value: 'not a buffer' as unknown as Buffer },
      ];
      await expect(store.putAllAsync(bad)).rejects.toThrow(TypeError);
      expect(await read(s('x'))).toBeUndefined();
    });

    it('scans inclusive, open, reverse and empty ranges', async () => {
      putStrings('a', 'b', 'c', 'd', 'e');
      expect(hex(await scan(s('b'), s('d')))).toEqual(hex(await scan(s('b'), s('d'))));
      expect(text(await scan(s('b'), s('d')))).toEqual(['b=B', 'c=C', 'd=D']);
      expect(text(await scan(s('bb'), s('cc')))).toEqual(['c=C']);
      expect(text(await scan(undefined, s('b')))).toEqual(['a=A', 'b=B']);
      expect(text(await scan(s('d'), undefined))).toEqual(['d=D', 'e=E']);
      expect(text(await scan(s('b'), s('d'), true))).toEqual(['d=D', 'c=C', 'b=B']);
      expect(text(await scan(undefined, s('b'), true))).toEqual(['b=B', 'a=A']);
      expect(text(await scan(s('d'), undefined, true))).toEqual(['e=E', 'd=D']);
      expect(await scan(s('d'), s('b'))).toEqual([]);
      expect(await scan(s('d'), s('b'), true)).toEqual([]);
      expect(text(await scan(s('c'), s('c')))).toEqual(['c=C']);
      expect(await scan(s('f'), undefined)).toEqual([]);
    });

    it('orders keys by unsigned bytes (0x80 after 0x7f)', async () => {
      for (const key of [b(0x80), b(0x7f), b(0xff), b(0x00), b(0x7f, 0xff), b(0x01)]) {
        store.put(key, s('v'));
      }
      const ascending = ['00', '01', '7f', '7fff', '80', 'ff'];
      expect(hex(await scan(undefined, undefined))).toEqual(ascending);
      expect(hex(await scan(undefined, undefined, true))).toEqual([...ascending].reverse());
      expect(hex(await scan(b(0x7f, 0x00), b(0x80)))).toEqual(['7fff', '80']);
      if (store.capabilities.syncReads) {
        expect(hex([...store.all()])).toEqual(ascending);
        expect(hex([...store.reverseAll()])).toEqual([...ascending].reverse());
      }
    });

    it('scans prefixes, including 0xff edges', async () => {
      const keys = [
        b(0x00),
        b(0xfe, 0xff),
        b(0xff),
        b(0xff, 0x00),
        b(0xff, 0xff),
        b(0xff, 0xff, 0x01),
        b(0x61, 0x62),
        b(0x61, 0x62, 0x63),
        b(0x61, 0x63),
      ];
      store.putAll(keys.map((key) => ({ key, value: s('v') })));
      expect(hex(await prefix(b(0xff)))).toEqual(['ff', 'ff00', 'ffff', 'ffff01']);
      expect(hex(await prefix(b(0xff, 0xff)))).toEqual(['ffff', 'ffff01']);
      expect(hex(await prefix(b(0xfe)))).toEqual(['feff']);
      expect(hex(await prefix(b(0x61, 0x62)))).toEqual(['6162', '616263']);
      expect(hex(await prefix(b(0x62)))).toEqual([]);
      expect(await prefix(Buffer.alloc(0))).toHaveLength(keys.length);
    });

    it('scans across the engines’ batch boundaries, both ways', async () => {
      const count = 5000;
      const key = (i: number): Buffer => s(`k${String(i).padStart(6, '0')}`);
      for (let start = 0; start < count; start += 1000) {
        store.putAll(
          Array.from({ length: 1000 }, (_, i) => ({
            key: key(start + i),
            value: s(`${start + i}`),
          })),
        );
      }
      const all = await scan(undefined, undefined);
      expect(all).toHaveLength(count);
      expect(all[count - 1].value.toString()).toBe(`${count - 1}`);
      const reverse = await scan(key(10), key(3010), true);
      expect(reverse).toHaveLength(3001);
      expect(reverse[0].key.toString()).toBe('k003010');
      expect(hex(await prefix(s('k0012')))).toHaveLength(100);
    });

    it('estimates the number of entries', async () => {
      store.putAll(Array.from({ length: 200 }, (_, i) => ({ key: s(`k${i}`), value: s('v') })));
      await store.flush();
      const estimate = store.approximateNumEntries();
      expect(estimate).toBeGreaterThanOrEqual(100);
      expect(estimate).toBeLessThanOrEqual(300);
    });

    it('flushes, closes and reopens (persistent engines keep their data)', async () => {
      putStrings('a', 'b');
      store.put(s('a'), null);
      await store.flush();
      store.put(s('c'), s('C'));
      await store.close();
      await store.close(); // idempotent
      expect(store.isOpen()).toBe(false);
      await store.open();
      await store.open(); // idempotent
      expect(store.isOpen()).toBe(true);
      const expected = store.capabilities.persistent ? ['b=B', 'c=C'] : [];
      expect(text(await scan(undefined, undefined))).toEqual(expected);
    });

    it('destroys its data, open or not', async () => {
      putStrings('a');
      await store.destroy();
      expect(store.isOpen()).toBe(false);
      await store.open();
      expect(await scan(undefined, undefined)).toEqual([]);
      const never = createStore('never-opened', join(directory, 'never-opened'));
      await expect(never.destroy()).resolves.toBeUndefined();
    });

    it('throws StoreClosedError when used closed', async () => {
      const unopened = createStore('unopened', join(directory, 'unopened'));
      await store.close();
      for (const closed of [store, unopened]) {
        const calls: (() => unknown)[] = [
          () => closed.put(s('a'), s('1')),
          () => closed.putAll([{ key: s('a'), value: null }]),
          () => closed.approximateNumEntries(),
        ];
        if (closed.capabilities.syncReads) {
          calls.push(
            () => closed.get(s('a')),
            () => closed.getMany([s('a')]),
            () => closed.range(undefined, undefined),
            () => closed.prefixScan(s('a')),
            () => closed.delete(s('a')),
          );
        }
        for (const call of calls) {
          expect(call).toThrow(expect.objectContaining({ code: 'STORE_CLOSED', retriable: false }));
        }
        const asyncCalls: (() => Promise<unknown>)[] = [
          () => closed.getAsync(s('a')),
          () => closed.getManyAsync([s('a')]),
          () => closed.rangeAsync(undefined, undefined),
          () => closed.prefixScanAsync(s('a')),
          () => closed.flush(),
        ];
        for (const call of asyncCalls) {
          await expect(Promise.resolve().then(() => call())).rejects.toMatchObject({
            code: 'STORE_CLOSED',
          });
        }
      }
    });

    describe('synchronous reads', () => {
      const syncIt = (name: string, test: () => Promise<void>): void =>
        it(name, async () => {
          if (store.capabilities.syncReads) {
            await test();
          }
        });

      syncIt('deletes and returns the old value', async () => {
        store.put(s('a'), s('1'));
        expect(store.delete(s('a'))?.toString()).toBe('1');
        expect(store.delete(s('a'))).toBeUndefined();
        expect(store.get(s('a'))).toBeUndefined();
      });

      syncIt('puts if absent', async () => {
        expect(store.putIfAbsent(s('a'), s('1'))).toBeUndefined();
        expect(store.putIfAbsent(s('a'), s('2'))?.toString()).toBe('1');
        expect(store.get(s('a'))?.toString()).toBe('1');
      });

      syncIt('stops an iterator early and still closes cleanly', async () => {
        putStrings('a', 'b', 'c');
        for (const entry of store.all()) {
          expect(entry.key.toString()).toBe('a');
          break;
        }
        const iterator = store.range(s('b'), undefined);
        expect(iterator.next().value?.key.toString()).toBe('b');
        iterator.return?.();
        await store.close();
      });

      syncIt('fails an iterator that outlives its store', async () => {
        putStrings('a', 'b', 'c');
        const iterator = store.all();
        expect(iterator.next().done).toBe(false);
        await store.close();
        expect(() => iterator.next()).toThrow(expect.objectContaining({ code: 'STORE_CLOSED' }));
      });
    });

    it('refuses synchronous reads with a typed error when it has none', async () => {
      if (store.capabilities.syncReads) {
        return;
      }
      for (const call of [
        () => store.get(s('a')),
        () => store.getMany([s('a')]),
        () => store.range(undefined, undefined),
        () => store.reverseAll(),
        () => store.prefixScan(s('a')),
        () => store.delete(s('a')),
        () => store.putIfAbsent(s('a'), s('1')),
      ]) {
        expect(call).toThrow(expect.objectContaining({ code: 'STORE_OPERATION_UNSUPPORTED' }));
      }
    });
  });
}

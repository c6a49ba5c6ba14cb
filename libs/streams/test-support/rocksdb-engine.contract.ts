import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { useTempDirectory } from '../../rocksdb/test-support/temp-directory';
import { RocksDBConfigError } from '../src/errors/rocksdb-config.error';
import type { RocksDBConfigSetter } from '../src/state/rocksdb-config-setter';
import type { RocksDBOptions, RocksDBOptionValues } from '../src/state/rocksdb-options';
import type { RocksDBStoreParams } from '../src/state/internals/rocksdb/rocksdb-store-params';
import type { RocksDBStoreMetrics } from '../src/state/rocksdb-store-metrics';
import { writtenRocksDBOptions } from '../src/state/internals/rocksdb/rocksdb-options-file';
import type { BytesStore } from '../src/state/bytes-store';
import { describeBytesStoreContract } from './bytes-store.contract';

/** A RocksDB engine's store, with what the contract reads beyond the bytes store. */
export interface RocksDBEngineStoreUnderTest extends BytesStore {
  readonly appliedOptions: RocksDBOptionValues | undefined;
  metrics(): RocksDBStoreMetrics;
}

/** What differs between the engines in the options contract. */
export interface RocksDBEngineExpectations {
  /** The engine's name in `RocksDBConfigError.engine`. */
  readonly engine: string;
  /** Whether the WAL is on by default (Kafka Streams turns it off where the engine can). */
  readonly walEnabled: boolean;
  /** OPTIONS-file lines the engine's defaults write, beyond those every engine writes. */
  readonly defaults: Readonly<Record<string, string>>;
  /** Engine-specific settings the config setter makes (besides cache, buffer size and style). */
  tune(options: RocksDBOptions): void;
  /** OPTIONS-file lines `tune` leads to. */
  readonly tuned: Readonly<Record<string, string>>;
  /** Settings the engine cannot apply, and the problems it names for them, in order. */
  impossible(options: RocksDBOptions): void;
  readonly problems: readonly string[];
}

const MiB = 1024 * 1024;

/**
 * Defines the tests (Jest) every RocksDB engine passes about its options, config setter and
 * directory: Kafka Streams' defaults, the setter's changes and its `close` with the same
 * object, typed refusal of what the engine cannot apply, and a locked directory. Call it from
 * the engine's `*.spec.ts`; each test gets a fresh directory.
 */
export function describeRocksDBEngineContract(
  name: string,
  createStore: (params: RocksDBStoreParams) => RocksDBEngineStoreUnderTest,
  expected: RocksDBEngineExpectations,
): void {
  describe(`${name}: RocksDB engine contract`, () => {
    const root = useTempDirectory('rocksdb-engine-');

    it("opens with Kafka Streams' defaults", async () => {
      const directory = join(root(), 'defaults');
      const store = createStore({ name: 'defaults', directory });
      await store.open();
      expect(store.appliedOptions?.walEnabled).toBe(expected.walEnabled);
      expect(store.metrics().blockCacheCapacityBytes).toBe(50 * MiB);
      await store.close();
      const written = writtenRocksDBOptions(directory);
      expect(Object.fromEntries(written)).toMatchObject({
        write_buffer_size: String(16 * MiB),
        compression: 'kNoCompression',
        compaction_style: 'kCompactionStyleUniversal',
        block_size: '4096',
        filter_policy: 'bloomfilter:10:false',
        ...expected.defaults,
      });
    });

    it('applies a config setter and calls its close with the same options', async () => {
      const directory = join(root(), 'tuned');
      const seen: RocksDBOptions[] = [];
      const setter: RocksDBConfigSetter = {
        setConfig(storeName, options, configs) {
          expect(storeName).toBe('tuned');
          expect(configs).toEqual({ 'application.id': 'app' });
          options.blockCacheSize = 8 * MiB;
          options.writeBufferSize = 4 * MiB;
          options.compactionStyle = 'level';
          expected.tune(options);
          seen.push(options);
        },
        close(_storeName, options) {
          seen.push(options);
        },
      };
      const store = createStore({
        name: 'tuned',
        directory,
        configSetter: setter,
        configs: { 'application.id': 'app' },
      });
      await store.open();
      expect(store.appliedOptions?.blockCacheSize).toBe(8 * MiB);
      expect(store.metrics().blockCacheCapacityBytes).toBe(8 * MiB);
      await store.close();
      expect(seen).toHaveLength(2);
      expect(seen[1]).toBe(seen[0]);
      expect(Object.fromEntries(writtenRocksDBOptions(directory))).toMatchObject({
        write_buffer_size: String(4 * MiB),
        compaction_style: 'kCompactionStyleLevel',
        ...expected.tuned,
      });
    });

    it('rejects options it cannot apply, naming each', async () => {
      const store = createStore({
        name: 'impossible',
        directory: join(root(), 'impossible'),
        configSetter: { setConfig: (_name, options) => expected.impossible(options) },
      });
      const failure = store.open();
      await expect(failure).rejects.toBeInstanceOf(RocksDBConfigError);
      await expect(failure).rejects.toMatchObject({
        code: 'ROCKSDB_CONFIG_INVALID',
        engine: expected.engine,
        problems: expected.problems.map((problem) => expect.stringContaining(problem)),
      });
      expect(store.isOpen()).toBe(false);
    });

    it('fails with a ProcessorStateError when the directory is locked by another store', async () => {
      const directory = join(root(), 'locked');
      const first = createStore({ name: 'first', directory });
      const second = createStore({ name: 'second', directory });
      await first.open();
      await expect(second.open()).rejects.toMatchObject({
        code: 'PROCESSOR_STATE_ERROR',
        message: expect.stringMatching(/lock/i),
      });
      await first.close();
    });
  });
}

/**
 * The contracts a RocksDB engine's store keeps, for its `*.spec.ts`: the bytes-store contract
 * and the engine contract, on stores `createStore` makes.
 */
export function describeRocksDBStoreContracts(
  name: string,
  createStore: (params: RocksDBStoreParams) => RocksDBEngineStoreUnderTest,
  expected: RocksDBEngineExpectations,
): void {
  describeBytesStoreContract(name, (storeName, directory) =>
    createStore({ name: storeName, directory }),
  );
  describeRocksDBEngineContract(name, createStore, expected);
}

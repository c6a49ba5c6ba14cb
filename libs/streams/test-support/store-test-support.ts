import { UnsupportedStoreOperationError } from '../src/errors/unsupported-store-operation.error';
import { InMemoryRecordCollector } from '../src/processor/internals/in-memory-record-collector';
import { TaskId } from '../src/processor/task-id';
import type { StateStoreContext, StoreRegistration } from '../src/processor/state-store-context';
import type { BytesStore, BytesStoreCapabilities, KeyValueBytes } from '../src/state/bytes-store';
import { RecordCache } from '../src/state/internals/record-cache';
import { KeyValueEngineLayer } from '../src/state/internals/layers/key-value-engine-layer';

/** A {@link StateStoreContext} for tests, with its collector, cache and registrations at hand. */
export interface TestStoreContext extends StateStoreContext {
  readonly recordCollector: InMemoryRecordCollector;
  readonly cache: RecordCache;
  readonly registrations: StoreRegistration[];
  /** The value `currentTimestamp()` returns; set it per "record". */
  timestamp: number;
}

/**
 * A store context for unit tests: application `app`, task `0_0` unless given, an in-memory
 * record collector and a private 10 MiB record cache.
 */
export function testStoreContext(
  options: {
    applicationId?: string;
    taskId?: TaskId;
    taskDir?: string;
    cacheMaxBytes?: number;
    metricsLatencySampling?: number;
  } = {},
): TestStoreContext {
  const registrations: StoreRegistration[] = [];
  const context: TestStoreContext = {
    applicationId: options.applicationId ?? 'app',
    taskId: options.taskId ?? new TaskId(0, 0),
    taskDir: options.taskDir ?? '/nonexistent/app/0_0',
    recordCollector: new InMemoryRecordCollector(),
    cache: new RecordCache(options.cacheMaxBytes),
    metricsLatencySampling: options.metricsLatencySampling,
    registrations,
    timestamp: 0,
    currentTimestamp: () => context.timestamp,
    register: (registration) => {
      registrations.push(registration);
    },
  };
  return context;
}

/**
 * An engine double without synchronous reads (like the `rocksdb` binding): wraps another
 * engine, throws `UnsupportedStoreOperationError` from the synchronous reads and counts the
 * asynchronous multi-gets.
 */
export class AsyncOnlyBytesStore extends KeyValueEngineLayer {
  getManyAsyncCalls = 0;
  getAsyncCalls = 0;

  constructor(inner: BytesStore) {
    super(inner);
  }

  override get capabilities(): BytesStoreCapabilities {
    return { syncReads: false, persistent: this.engine.capabilities.persistent };
  }

  override get(): Buffer | undefined {
    throw this.unsupported('get');
  }

  override getMany(): (Buffer | undefined)[] {
    throw this.unsupported('getMany');
  }

  override getAsync(key: Buffer): Promise<Buffer | undefined> {
    this.getAsyncCalls++;
    return this.engine.getAsync(key);
  }

  override getManyAsync(keys: readonly Buffer[]): Promise<(Buffer | undefined)[]> {
    this.getManyAsyncCalls++;
    return this.engine.getManyAsync(keys);
  }

  override putIfAbsent(): Buffer | undefined {
    throw this.unsupported('putIfAbsent');
  }

  override delete(): Buffer | undefined {
    throw this.unsupported('delete');
  }

  override range(): IterableIterator<KeyValueBytes> {
    throw this.unsupported('range');
  }

  override reverseRange(): IterableIterator<KeyValueBytes> {
    throw this.unsupported('reverseRange');
  }

  override prefixScan(): IterableIterator<KeyValueBytes> {
    throw this.unsupported('prefixScan');
  }

  override all(): IterableIterator<KeyValueBytes> {
    throw this.unsupported('all');
  }

  override reverseAll(): IterableIterator<KeyValueBytes> {
    throw this.unsupported('reverseAll');
  }

  private unsupported(operation: string): Error {
    return new UnsupportedStoreOperationError(this.name, operation, 'test engine reads async only');
  }
}

/** A small seeded PRNG (mulberry32) for randomized specs, so a failure names a reproducible sequence. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

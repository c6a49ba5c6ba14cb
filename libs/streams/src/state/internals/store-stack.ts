import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { StateStoreContext } from '../../processor/state-store-context';
import type { BytesStore, BytesStoreCapabilities } from '../bytes-store';
import type {
  BytesStoreLocation,
  KeyValueBytesStoreSupplier,
} from '../key-value-bytes-store-supplier';
import type { SessionBytesStoreSupplier } from '../session-bytes-store-supplier';
import type { WindowBytesStoreSupplier } from '../window-bytes-store-supplier';
import { CachingBytesStore } from './layers/caching-bytes-store';
import { ChangeLoggingBytesStore } from './layers/change-logging-bytes-store';
import { InMemoryBytesStore } from './in-memory-bytes.store';
import { KeyValueEngineLayer } from './layers/key-value-engine-layer';
import { PrefetchingBytesStore } from './layers/prefetching-bytes-store';
import { SegmentedBytesStore, type SegmentedKeySchema } from './segments/segmented-bytes.store';
import type { StoreLayer } from './layers/store-layer';
import { TaskEngines } from './task-engines';
import { TransactionalBytesStore } from './transactional-bytes-store';

/*
 * How every store is stacked, outermost first. This file puts the layers together, for every
 * store kind (key-value, window, session) and engine; the store builder (`StateStoreBuilder`)
 * runs it, the suppliers of `Stores` make their engines through it, and the engine factories
 * only make engines.
 *
 * metered store       typed reads and writes, serdes, metrics: the builder's facade of the kind
 * -> caching          the record cache                                when caching is on
 *    or prefetching   the batch's reads, in one multi-get             when off, for a key-value
 *                                                                     engine reading async only
 * -> change-logging   a changelog record per write                    when logging is on
 * -> engine layer     the key-value engine as a layer, or the segmented store (window, session)
 *                     over its segments
 * -> transactional    write-behind, and exactly-once transactions     each RocksDB instance (the
 *                     (TransactionalBytesStore, driven by the          store, or each segment)
 *                     task's TaskEngines)                              inside a task
 * -> engine           RocksDB (the process's engine), in memory, or a supplier's own
 *
 * Logging sits below caching, so with caching on only what the cache flushes reaches the
 * changelog.
 */

/** The sub-directory of a task directory holding key-value engines (Kafka Streams' layout). */
const KEY_VALUE_DIR = 'rocksdb';

/** The layers a store builder was asked for. */
export interface StoreLayers {
  readonly caching: boolean;
  readonly logging: boolean;
  /** Extra configs of the changelog topic. */
  readonly topicConfig: Readonly<Record<string, string>>;
}

/** Makes one unopened engine, a store's or a segment's, named `name`, at `location`. */
export type EngineFactory = (name: string, location: BytesStoreLocation) => BytesStore;

/**
 * The layers over a store's engine layer (see the order above): change-logging when `logging`,
 * then caching when `caching`, else prefetching for a key-value engine that reads async only.
 */
export function layersOver(
  engine: StoreLayer,
  { caching, logging, topicConfig }: StoreLayers,
  timestampedValues: boolean,
): StoreLayer {
  let stack = engine;
  if (logging) stack = new ChangeLoggingBytesStore(stack, { timestampedValues, topicConfig });
  if (caching) stack = new CachingBytesStore(stack);
  else if (!engine.capabilities.syncReads && engine.segments === undefined) {
    stack = new PrefetchingBytesStore(stack);
  }
  return stack;
}

/**
 * The engine layer of a key-value store in a task: `supplier`'s engine in
 * `<taskDir>/rocksdb/<name>`, seen as a layer.
 */
export function keyValueEngineLayer(
  supplier: KeyValueBytesStoreSupplier,
): (context: StateStoreContext) => StoreLayer {
  const directory = join(KEY_VALUE_DIR, supplier.name);
  return (context) => new KeyValueEngineLayer(supplier.get(location(context, directory)));
}

/**
 * The engine layer of a window or session store in a task: `supplier`'s segmented engine in
 * `<taskDir>/<name>`.
 */
export function segmentedEngineLayer(
  supplier: WindowBytesStoreSupplier | SessionBytesStoreSupplier,
): (context: StateStoreContext) => StoreLayer {
  return (context) => supplier.get(location(context, supplier.name));
}

/**
 * The persistent engine of a key-value store at `location`: `make`'s engine, under the
 * transactional layer of the task whose {@link TaskEngines} `location.configs` carries (the
 * task's registry covers the store from now on). Outside a task, the engine itself.
 */
export function persistentEngine(
  name: string,
  location: BytesStoreLocation,
  make: EngineFactory,
): BytesStore {
  const engines = TaskEngines.of(location.configs);
  engines?.declare(name);
  return transactional(make(name, location), engines);
}

/** What a window or session store's segmented engine is made of. */
export interface SegmentedEngineSpec {
  readonly name: string;
  readonly retentionPeriodMs: number;
  readonly schema: SegmentedKeySchema;
  /** The segments' engine, or `'in-memory'` for segments in memory. */
  readonly segments: EngineFactory | 'in-memory';
}

/**
 * The segmented engine of a window or session store at `location`: segments in memory, or
 * persistent ones, each in `<directory>/<segment>` and named like it (`<name>.<start>`, the
 * name a config setter gets, as in Kafka Streams), each under the task's transactional layer
 * (see {@link persistentEngine}). Inside a task, commits and checkpoints wait for the segments
 * opening in the background.
 */
export function segmentedEngine(
  spec: SegmentedEngineSpec,
  { directory, configs }: BytesStoreLocation,
): SegmentedBytesStore {
  const { name, retentionPeriodMs, schema, segments: make } = spec;
  const persistent = make !== 'in-memory';
  const capabilities: BytesStoreCapabilities = { syncReads: true, persistent };
  const engines = persistent ? TaskEngines.of(configs) : undefined;
  engines?.declare(name);
  const segmentFactory = persistent
    ? (segment: string) =>
        transactional(make(segment, { directory: join(directory, segment), configs }), engines)
    : (segment: string): BytesStore => new InMemoryBytesStore(segment);
  const listSegmentNames = persistent ? () => listDirectory(directory) : undefined;
  const onSegmentOpening = engines && ((ready: Promise<void>) => engines.track(ready));
  return new SegmentedBytesStore(
    { name, retentionPeriodMs, capabilities, segmentFactory, listSegmentNames, onSegmentOpening },
    schema,
  );
}

/** Where a store's engine lives in a task: `<taskDir>/<sub>`, with the application's configs. */
function location(context: StateStoreContext, sub: string): BytesStoreLocation {
  return { directory: join(context.taskDir, sub), configs: context.appConfigs ?? {} };
}

/** `engine` as the task of `engines` drives it, or the engine itself outside a task. */
function transactional(engine: BytesStore, engines: TaskEngines | undefined): BytesStore {
  return engines === undefined ? engine : new TransactionalBytesStore(engine, engines);
}

/** The entries of `directory` (segment names), none when it does not exist yet. */
async function listDirectory(directory: string): Promise<string[]> {
  try {
    return await fs.readdir(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

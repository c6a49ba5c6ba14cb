import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RocksDBClosedError } from '../rocksdb-closed-error';
import { RocksDBError } from '../rocksdb-error';
import { RocksDBUnavailableError } from '../rocksdb-unavailable-error';

/** The built addon, relative to this file in both `src/internals` and `dist/internals`. */
export const ADDON_PATH = join(
  __dirname,
  '..',
  '..',
  'build',
  'Release',
  'nest_streams_rocksdb.node',
);
/** Written by scripts/install.js when it did not build the addon: `{ "reason": string }`. */
export const INSTALL_STATUS_PATH = join(__dirname, '..', '..', 'build', 'install-status.json');

/** The addon's classes and functions, as native/addon.cc exports them. */
export interface NativeAddon {
  readonly Cache: new (options: object) => NativeCache;
  readonly WriteBufferManager: new (options: object) => NativeWriteBufferManager;
  readonly Database: NativeDatabaseClass;
  readonly SstFileWriter: new (path: string, options: object) => NativeSstFileWriter;
  readonly rocksdbVersion: string;
  setErrorClasses(status: typeof RocksDBError, closed: typeof RocksDBClosedError): void;
  supportedCompressions(): string[];
}

export interface NativeCache {
  usage(): number;
  pinnedUsage(): number;
  capacity(): number;
  setCapacity(capacity: number): void;
  close(): void;
}

export interface NativeWriteBufferManager {
  memoryUsage(): number;
  mutableMemoryUsage(): number;
  bufferSize(): number;
  costToCache(): boolean;
  close(): void;
}

export interface NativeDatabaseClass {
  new (): NativeDatabase;
  destroy(path: string): Promise<void>;
}

export interface NativeWriteOptions {
  disableWAL?: boolean;
  sync?: boolean;
}

export interface NativeDatabase {
  open(path: string, options: object): Promise<void>;
  close(): Promise<void>;
  isOpen(): boolean;
  get(key: Buffer): Buffer | undefined;
  getMany(keys: readonly Buffer[]): Buffer;
  getAsync(key: Buffer): Promise<Buffer | undefined>;
  getManyAsync(keys: readonly Buffer[]): Promise<Buffer>;
  write(batch: Buffer, options?: NativeWriteOptions): void;
  writeAsync(batch: Buffer, options?: NativeWriteOptions): Promise<void>;
  iterator(options: object): NativeIterator;
  flush(options: { wait: boolean }): Promise<void>;
  compactRange(from: Buffer | undefined, to: Buffer | undefined): Promise<void>;
  getProperty(name: string): string | undefined;
  statistics(): Record<string, number> | undefined;
  checkpoint(directory: string): Promise<void>;
  ingestExternalFiles(files: readonly string[], options: { moveFiles: boolean }): Promise<void>;
}

export interface NativeIterator {
  nextChunk(limit: number, maxBytes?: number): Buffer;
  nextChunkAsync(limit: number, maxBytes?: number): Promise<Buffer>;
  close(): void;
}

export interface NativeSstFileWriter {
  put(key: Buffer, value: Buffer): void;
  delete(key: Buffer): void;
  deleteRange(from: Buffer, to: Buffer): void;
  add(batch: Buffer): void;
  finish(): {
    path: string;
    fileSize: number;
    entries: number;
    smallestKey?: Buffer;
    largestKey?: Buffer;
  };
  fileSize(): number;
  abandon(): void;
}

let loaded: NativeAddon | undefined;
let failure: RocksDBUnavailableError | undefined;

/**
 * Loads the addon once (later calls return the same module or throw the same error).
 *
 * Throws `RocksDBUnavailableError` when it was not built or cannot be loaded: install what the
 * error names and rebuild, or use another engine.
 */
export function nativeAddon(): NativeAddon {
  if (loaded !== undefined) {
    return loaded;
  }
  if (failure !== undefined) {
    throw failure;
  }
  try {
    loaded = loadAddon(ADDON_PATH);
    return loaded;
  } catch (cause) {
    failure = cause as RocksDBUnavailableError;
    throw failure;
  }
}

/** Loads the addon at `path`, or throws `RocksDBUnavailableError` saying why it cannot. */
export function loadAddon(path: string, statusPath = INSTALL_STATUS_PATH): NativeAddon {
  if (process.env.NEST_STREAMS_ROCKSDB_DISABLE === '1') {
    throw new RocksDBUnavailableError('disabled by NEST_STREAMS_ROCKSDB_DISABLE=1');
  }
  let addon: NativeAddon;
  try {
    const module = { exports: {} };
    process.dlopen(module, path);
    addon = module.exports as NativeAddon;
  } catch (cause) {
    throw new RocksDBUnavailableError(installFailure(statusPath) ?? describe(cause), { cause });
  }
  addon.setErrorClasses(RocksDBError, RocksDBClosedError);
  return addon;
}

function installFailure(statusPath: string): string | undefined {
  try {
    const status = JSON.parse(readFileSync(statusPath, 'utf8')) as { reason?: unknown };
    return typeof status.reason === 'string' ? status.reason : undefined;
  } catch {
    return undefined;
  }
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0];
}

import { rm } from 'node:fs/promises';
import { ProcessorStateError } from '../../../errors/processor-state.error';
import { StoreClosedError } from '../../../errors/store-closed.error';
import type { RocksDBOptions, RocksDBOptionValues } from '../../rocksdb-options';
import type { RocksDBStoreMetrics } from '../../rocksdb-store-metrics';
import type { BytesStoreCapabilities } from '../../bytes-store';
import { EngineBytesStore } from '../engine-bytes-store';
import { readRocksDBMetrics } from './rocksdb-properties';
import type { RocksDBStoreParams } from './rocksdb-store-params';

/**
 * What the two RocksDB engines share around their binding's database handle `Db`: the options
 * (Kafka Streams' defaults, then the config setter, whose `close` gets the same object), one
 * open at a time, close and destroy, the generation that tells iterators they outlived their
 * open period, and the metrics read from RocksDB's properties. Subclasses open and close the
 * binding's database, read, write and scan.
 *
 * Errors: `StoreClosedError` while not open; `ProcessorStateError` when closing the database,
 * the config setter's `close` or deleting the directory fails; the subclass's own for the rest.
 */
export abstract class RocksDBEngineStore<Db> extends EngineBytesStore {
  readonly capabilities: BytesStoreCapabilities = { syncReads: true, persistent: true };
  readonly name: string;

  /** The open database; undefined while closed. */
  protected db: Db | undefined;
  /** The options the database was opened with; undefined while closed. */
  protected options: RocksDBOptions | undefined;
  /** Bumped on every open and close, so that iterators can tell they outlived their period. */
  protected generation = 0;
  private opening: Promise<void> | undefined;

  constructor(protected readonly params: RocksDBStoreParams) {
    super();
    this.name = params.name;
  }

  /** The options the store runs with (after the config setter); undefined while closed. */
  get appliedOptions(): RocksDBOptionValues | undefined {
    return this.options?.toJSON();
  }

  async open(): Promise<void> {
    if (this.db !== undefined) {
      return;
    }
    this.opening ??= this.openDatabase().finally(() => {
      this.opening = undefined;
    });
    return this.opening;
  }

  isOpen(): boolean {
    return this.db !== undefined;
  }

  /** RocksDB's memory and compaction figures for this store. */
  metrics(): RocksDBStoreMetrics {
    const db = this.requireOpen();
    const figures = readRocksDBMetrics((name) => this.property(db, name), this.statistics(db));
    return { ...figures, sharedBlockCache: this.options?.blockCache !== undefined };
  }

  async close(): Promise<void> {
    await this.opening?.catch(() => undefined);
    const { db, options } = this;
    if (db === undefined || options === undefined) {
      return;
    }
    this.db = undefined;
    this.options = undefined;
    this.generation++;
    let failure: unknown;
    try {
      await this.closeDatabase(db);
    } catch (cause) {
      failure = cause;
    }
    try {
      this.params.configSetter?.close?.(this.name, options);
    } catch (cause) {
      failure ??= cause;
    }
    if (failure !== undefined) {
      throw new ProcessorStateError(this.name, 'close', failure);
    }
  }

  async destroy(): Promise<void> {
    await this.close();
    try {
      await rm(this.params.directory, { recursive: true, force: true });
    } catch (cause) {
      throw new ProcessorStateError(this.name, 'delete its directory', cause);
    }
  }

  /** The engine's defaults, before the config setter runs. */
  protected abstract defaultOptions(): RocksDBOptions;

  /** Opens the database in `params.directory` with the options the config setter left. */
  protected abstract openDatabaseWith(options: RocksDBOptions): Promise<Db>;

  /** Closes the database (and whatever the subclass opened with it). */
  protected abstract closeDatabase(db: Db): Promise<void>;

  /** A RocksDB property's text; an empty string for a property the binding does not know. */
  protected abstract property(db: Db, name: string): string;

  /** RocksDB's tickers, when the engine collects statistics (none by default). */
  protected statistics(_db: Db): Readonly<Record<string, number>> | undefined {
    return undefined;
  }

  protected requireOpen(): Db {
    if (this.db === undefined) {
      throw new StoreClosedError(this.name);
    }
    return this.db;
  }

  protected assertGeneration(generation: number): void {
    if (this.generation !== generation) {
      throw new StoreClosedError(this.name, 'was closed while an iterator was open');
    }
  }

  private async openDatabase(): Promise<void> {
    const options = this.defaultOptions();
    this.params.configSetter?.setConfig(this.name, options, this.params.configs ?? {});
    const db = await this.openDatabaseWith(options);
    this.db = db;
    this.options = options;
    this.generation++;
  }
}

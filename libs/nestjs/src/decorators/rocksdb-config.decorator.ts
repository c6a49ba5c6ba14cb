import { SetMetadata } from '@nestjs/common';
import { ROCKSDB_CONFIG_METADATA } from '../streams.constants';

/**
 * Marks the provider that tunes every persistent store's RocksDB options: a class
 * implementing the engine's `RocksDBConfigSetter` (`setConfig(storeName, options, configs)`),
 * resolved through DI so it can inject configuration. At most one per application.
 *
 * @example
 * @RocksDBConfig()
 * @Injectable()
 * export class TunedRocksDB implements RocksDBConfigSetter {
 *   constructor(private readonly config: ConfigService) {}
 *   setConfig(store: string, options: RocksDBOptions): void {
 *     options.blockCacheSize = this.config.get('BLOCK_CACHE_BYTES');
 *   }
 * }
 *
 * Errors at start-up: `InvalidStateStoreDeclarationError` when two providers carry it, when
 * the class has no `setConfig`, or when the module options also set `rocksDBConfigSetter`
 * (keep one). An error thrown by `setConfig` fails the store's open (the task), as in the
 * engine.
 */
export function RocksDBConfig(): ClassDecorator {
  return SetMetadata(ROCKSDB_CONFIG_METADATA, true);
}

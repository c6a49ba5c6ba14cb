import type { BytesStore, BytesStoreCapabilities } from '../../bytes-store';
import { AbstractStoreLayer } from './store-layer';

/**
 * A store layer over another store, `below`: the calls a {@link BytesStore} has (name,
 * lifecycle, point reads, counts) go straight to it. The base of the engine adapter
 * (`KeyValueEngineLayer`, over an engine) and of the layers (`WrappedStoreLayer`, over the
 * layer below); each overrides what it does differently.
 */
export abstract class ForwardingStoreLayer<Below extends BytesStore> extends AbstractStoreLayer {
  constructor(private readonly below: Below) {
    super();
  }

  get name(): string {
    return this.below.name;
  }

  get capabilities(): BytesStoreCapabilities {
    return this.below.capabilities;
  }

  open(): Promise<void> {
    return this.below.open();
  }

  isOpen(): boolean {
    return this.below.isOpen();
  }

  get(key: Buffer): Buffer | undefined {
    return this.below.get(key);
  }

  override getMany(keys: readonly Buffer[]): (Buffer | undefined)[] {
    return this.below.getMany(keys);
  }

  getAsync(key: Buffer): Promise<Buffer | undefined> {
    return this.below.getAsync(key);
  }

  override getManyAsync(keys: readonly Buffer[]): Promise<(Buffer | undefined)[]> {
    return this.below.getManyAsync(keys);
  }

  approximateNumEntries(): number {
    return this.below.approximateNumEntries();
  }

  flush(): Promise<void> {
    return this.below.flush();
  }

  close(): Promise<void> {
    return this.below.close();
  }

  destroy(): Promise<void> {
    return this.below.destroy();
  }
}

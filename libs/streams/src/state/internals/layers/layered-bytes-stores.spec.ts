import type { StateStoreContext } from '../../../processor/state-store-context';
import { describeBytesStoreContract } from '../../../../test-support/bytes-store.contract';
import { CachingBytesStore } from './caching-bytes-store';
import { ChangeLoggingBytesStore } from './change-logging-bytes-store';
import { InMemoryBytesStore } from '../in-memory-bytes.store';
import { testStoreContext } from '../../../../test-support/store-test-support';
import { KeyValueEngineLayer } from './key-value-engine-layer';
import type { StoreLayer } from './store-layer';
import { WrappedStoreLayer } from './wrapped-store-layer';

/** Opens a stack of layers through `open()`, as the contract suite does for engines. */
class OpenedWithContext extends WrappedStoreLayer {
  constructor(
    inner: StoreLayer,
    private readonly context: StateStoreContext,
  ) {
    super(inner);
  }

  override open(): Promise<void> {
    return this.inner.init(this.context);
  }
}

// Every layer is itself a bytes store: the stacks must honour the same contract as engines.
describeBytesStoreContract(
  'change-logging over in-memory',
  (name) =>
    new OpenedWithContext(
      new ChangeLoggingBytesStore(new KeyValueEngineLayer(new InMemoryBytesStore(name))),
      testStoreContext(),
    ),
);

describeBytesStoreContract(
  'caching over change-logging over in-memory',
  (name) =>
    new OpenedWithContext(
      new CachingBytesStore(
        new ChangeLoggingBytesStore(new KeyValueEngineLayer(new InMemoryBytesStore(name))),
      ),
      testStoreContext(),
    ),
);

describeBytesStoreContract(
  'caching with a tiny cache (constant eviction)',
  (name) =>
    new OpenedWithContext(
      new CachingBytesStore(
        new ChangeLoggingBytesStore(new KeyValueEngineLayer(new InMemoryBytesStore(name))),
      ),
      testStoreContext({ cacheMaxBytes: 300 }),
    ),
);

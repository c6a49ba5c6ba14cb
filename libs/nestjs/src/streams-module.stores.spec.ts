import { Inject, Injectable } from '@nestjs/common';
import {
  KafkaStreams,
  Materialized,
  Serdes,
  Stores,
  TimeWindows,
  type StreamsBuilder,
} from '@nest-streams/streams';
import { Count } from './decorators/count.decorator';
import { InjectStore } from './decorators/inject-store.decorator';
import { StateStore } from './decorators/state-store.decorator';
import { Topology } from './decorators/topology.decorator';
import type { TopologyContext } from './discovery/topology-context';
import { InvalidStreamsDeclarationError } from './errors/invalid-streams-declaration.error';
import { StoreKindMismatchError } from './errors/store-kind-mismatch.error';
import { UndeclaredStateStoreError } from './errors/undeclared-state-store.error';
import { KeyValueStoreFacade } from './queries/key-value-store.facade';
import { SessionStoreFacade } from './queries/session-store.facade';
import { WindowStoreFacade } from './queries/window-store.facade';
import { appWith, baseOptions, initError } from '../test-support/stats-module-fixtures';

@StateStore('order-counts', { keySerde: Serdes.String() })
@StateStore('order-windows', { kind: 'window', keySerde: Serdes.String(), retentionMs: 3_600_000 })
@Injectable()
class Orders {
  @Count({ source: 'orders', store: 'order-counts', keySerde: Serdes.String() })
  count(): void {}

  @Count({
    source: 'orders',
    store: 'order-windows',
    keySerde: Serdes.String(),
    windows: TimeWindows.ofSizeWithNoGrace(60_000),
  })
  countPerMinute(): void {}
}

/** The module's options here: a broker never reached, the client never started. */
const STORES_SPEC = { streams: { ...baseOptions.streams, applicationId: 'stores-spec' } };

describe('@InjectStore infers the kind of the store', () => {
  it('injects the facade of the declared kind without being told', async () => {
    @StateStore('visits', { kind: 'session', retentionMs: 60_000 })
    @Injectable()
    class Sessions {
      @Topology()
      build(_builder: StreamsBuilder, context: TopologyContext): void {
        context.addStateStore('visits');
        context.stream('clicks').process(() => ({ process: () => undefined }), undefined, 'visits');
      }
    }
    @Injectable()
    class Reader {
      constructor(
        @InjectStore('order-counts') readonly counts: unknown,
        @InjectStore('order-windows') readonly windows: unknown,
        @InjectStore('visits') readonly visits: unknown,
      ) {}
    }
    const app = await appWith([Orders, Sessions, Reader], STORES_SPEC);
    try {
      const reader = app.get(Reader);
      expect(reader.counts).toBeInstanceOf(KeyValueStoreFacade);
      expect(reader.windows).toBeInstanceOf(WindowStoreFacade);
      expect(reader.visits).toBeInstanceOf(SessionStoreFacade);
    } finally {
      await app.close();
    }
  });

  it('refuses a kind that is not the declared one, naming both', async () => {
    @Injectable()
    class WrongKind {
      constructor(@InjectStore('order-windows', 'key-value') readonly windows: unknown) {}
    }
    const error = await initError([Orders, WrongKind], STORES_SPEC);
    expect(error).toBeInstanceOf(StoreKindMismatchError);
    expect(error.message).toBe(
      "@InjectStore('order-windows', 'key-value') in WrongKind constructor parameter 0 asks for a key-value store, but @StateStore('order-windows') on Orders declares 'order-windows' as a window store: drop the kind (it is inferred) or make it 'window'",
    );
  });

  it('checks stores a @Topology() method materialized against the topology', async () => {
    @Injectable()
    class OwnDsl {
      @Topology()
      build(builder: StreamsBuilder): void {
        builder
          .stream<string, string>('pages')
          .groupByKey()
          .windowedBy(TimeWindows.ofSizeWithNoGrace(1000))
          .count(Materialized.as('page-windows'));
      }
    }
    @Injectable()
    class Guessing {
      constructor(@InjectStore('page-windows') readonly windows: unknown) {}
    }
    const error = await initError([OwnDsl, Guessing], STORES_SPEC);
    expect(error).toBeInstanceOf(StoreKindMismatchError);
    expect(error.message).toBe(
      "@InjectStore('page-windows', 'key-value') in Guessing constructor parameter 0 asks for a key-value store, but the topology (a @Topology() method) declares 'page-windows' as a window store: drop the kind (it is inferred) or make it 'window'",
    );
  });

  it('refuses a store the topology does not have', async () => {
    @Injectable()
    class Lost {
      constructor(@Inject(KafkaStreams) readonly streams: KafkaStreams) {}
      @InjectStore('no-such-store') readonly nothing: unknown;
    }
    const error = await initError([Orders, Lost], STORES_SPEC);
    expect(error).toBeInstanceOf(UndeclaredStateStoreError);
    expect(error.message).toBe(
      "@InjectStore in Lost.nothing names state store 'no-such-store', which no @StateStore declares (declared: 'order-counts', 'order-windows'): add @StateStore('no-such-store', ...) to a provider",
    );
  });
});

describe('@StateStore picks the engine', () => {
  it('builds RocksDB by default, in memory or with your own supplier when asked', async () => {
    @StateStore('on-disk', { keySerde: Serdes.String() })
    @StateStore('in-memory', { keySerde: Serdes.String(), engine: 'in-memory' })
    @StateStore('supplied', {
      keySerde: Serdes.String(),
      engine: Stores.inMemoryKeyValueStore('supplied'),
    })
    @Injectable()
    class Engines {
      @Count({ source: 'a', store: 'on-disk', keySerde: Serdes.String() })
      a(): void {}
      @Count({ source: 'a', store: 'in-memory', keySerde: Serdes.String() })
      b(): void {}
      @Count({ source: 'a', store: 'supplied', keySerde: Serdes.String() })
      c(): void {}
    }
    const app = await appWith([Engines], STORES_SPEC);
    try {
      const stores = app.get(KafkaStreams).topology.stores();
      expect(stores.get('on-disk')!.build().persistent).toBe(true);
      expect(stores.get('in-memory')!.build().persistent).toBe(false);
      expect(stores.get('supplied')!.build().persistent).toBe(false);
    } finally {
      await app.close();
    }
  });

  it('refuses an engine it does not know, or a supplier for a window store', async () => {
    @StateStore('odd', { engine: 'lmdb' as 'rocksdb' })
    @Injectable()
    class Odd {}
    const odd = await initError([Odd], STORES_SPEC);
    expect(odd).toBeInstanceOf(InvalidStreamsDeclarationError);
    expect(odd.message).toBe(
      "@StateStore('odd') on Odd: engine must be 'rocksdb', 'in-memory' or a key-value store supplier, got 'lmdb'",
    );
    @StateStore('win', {
      kind: 'window',
      retentionMs: 1000,
      engine: Stores.inMemoryKeyValueStore('win'),
    })
    @Injectable()
    class Win {}
    const win = await initError([Win], STORES_SPEC);
    expect(win.message).toBe(
      "@StateStore('win') on Win: an engine supplier is for key-value stores; a window store takes 'rocksdb' or 'in-memory'",
    );
  });
});

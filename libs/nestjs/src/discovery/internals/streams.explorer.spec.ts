import { Injectable } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { SessionWindows } from '@nest-streams/streams';
import { Aggregate } from '../../decorators/aggregate.decorator';
import { Count } from '../../decorators/count.decorator';
import { Reduce } from '../../decorators/reduce.decorator';
import { RocksDBConfig } from '../../decorators/rocksdb-config.decorator';
import { RouteByKey } from '../../decorators/route-by-key.decorator';
import { StateStore } from '../../decorators/state-store.decorator';
import { Topology } from '../../decorators/topology.decorator';
import { InvalidStreamsDeclarationError } from '../../errors/invalid-streams-declaration.error';
import { StreamsMetadataAccessor } from './streams-metadata.accessor';
import { StreamsExplorer } from './streams.explorer';

@StateStore('totals', { engine: 'in-memory' })
@StateStore('maxima')
@Injectable()
class Decorated {
  readonly factor = 2;

  @Aggregate<string, number, number>({ source: 'in', store: 'totals', initializer: () => 0 })
  add(_k: string, v: number, total: number): number {
    return total + v * this.factor;
  }

  @Reduce<string, number>({ source: 'in', store: 'maxima' })
  max(a: number, b: number): number {
    return Math.max(a, b);
  }

  @Topology()
  more(): void {}

  plain(): void {}
}

@RocksDBConfig()
@Injectable()
class Tuning {
  setConfig(): void {}
}

class Handlers {
  @RouteByKey('totals', 'id', { allowStaleReads: true })
  get(): void {}
}

async function explorerWith(providers: unknown[]): Promise<StreamsExplorer> {
  const moduleRef = await Test.createTestingModule({
    imports: [DiscoveryModule],
    providers: [StreamsExplorer, StreamsMetadataAccessor, ...(providers as never[])],
  }).compile();
  await moduleRef.init();
  return new StreamsExplorer(
    moduleRef.get(DiscoveryService),
    moduleRef.get(MetadataScanner),
    moduleRef.get(StreamsMetadataAccessor),
  );
}

describe('StreamsMetadataAccessor', () => {
  const accessor = new StreamsMetadataAccessor(new Reflector());

  it('reads every decorator', () => {
    expect(accessor.getStateStores(Decorated).map((d) => d.name)).toEqual(['totals', 'maxima']);
    expect(accessor.getStateStores(Decorated)[0].options).toEqual({ engine: 'in-memory' });
    expect(accessor.getAggregation(Decorated.prototype.add)).toMatchObject({
      kind: 'aggregate',
      options: { source: 'in', store: 'totals' },
    });
    expect(accessor.getAggregation(Decorated.prototype.max)?.kind).toBe('reduce');
    expect(accessor.getAggregation(Decorated.prototype.plain)).toBeUndefined();
    expect(accessor.isTopologyMethod(Decorated.prototype.more)).toBe(true);
    expect(accessor.isTopologyMethod(Decorated.prototype.plain)).toBe(false);
    expect(accessor.isRocksDBConfig(Tuning)).toBe(true);
    expect(accessor.isRocksDBConfig(Decorated)).toBe(false);
    expect(accessor.getRouteByKey(Handlers.prototype.get)).toEqual({
      store: 'totals',
      keyFrom: 'id',
      options: { allowStaleReads: true },
    });
  });
});

describe('StreamsExplorer', () => {
  it('finds decorated providers and binds their methods to the instances', async () => {
    const explorer = await explorerWith([Decorated, Tuning]);
    const declarations = explorer.explore();
    expect([...declarations.stores.keys()]).toEqual(['totals', 'maxima']);
    expect(declarations.stores.get('totals')?.declaredBy).toBe('Decorated');
    expect(declarations.aggregations.map((a) => [a.kind, a.declaredBy])).toEqual([
      ['aggregate', 'Decorated.add'],
      ['reduce', 'Decorated.max'],
    ]);
    // Bound to the instance: `this.factor` is there.
    expect(declarations.aggregations[0].invoke('k', 3, 1)).toBe(7);
    expect(declarations.topologyMethods.map((m) => m.declaredBy)).toEqual(['Decorated.more']);
    expect(declarations.rocksDBConfig?.declaredBy).toBe('Tuning');
  });

  it('rejects a session aggregation without a merger and two @RocksDBConfig providers', async () => {
    @StateStore('sessions', { kind: 'session' })
    @Injectable()
    class Sessions {
      @Aggregate<string, number, number>({
        source: 'in',
        store: 'sessions',
        initializer: () => 0,
        windows: SessionWindows.ofInactivityGapWithNoGrace(1000),
      })
      add(_k: string, v: number, a: number): number {
        return a + v;
      }
    }
    await expect(explorerWith([Sessions]).then((e) => e.explore())).rejects.toThrow(
      new InvalidStreamsDeclarationError(
        "@Aggregate on Sessions.add: session aggregations need a 'merger' to combine merging sessions",
      ),
    );

    @RocksDBConfig()
    @Injectable()
    class OtherTuning {
      setConfig(): void {}
    }
    await expect(explorerWith([Tuning, OtherTuning]).then((e) => e.explore())).rejects.toThrow(
      /@RocksDBConfig\(\) is on Tuning and OtherTuning/,
    );
  });

  it('rejects invalid store names and a @Count on a store filled twice', async () => {
    @StateStore('bad name!')
    @Injectable()
    class BadName {}
    await expect(explorerWith([BadName]).then((e) => e.explore())).rejects.toThrow(
      /@StateStore\('bad name!'\) on BadName: invalid store name/,
    );

    @StateStore('shared')
    @Injectable()
    class Twice {
      @Count({ source: 'a', store: 'shared' })
      one(): void {}
      @Count({ source: 'b', store: 'shared' })
      two(): void {}
    }
    await expect(explorerWith([Twice]).then((e) => e.explore())).rejects.toThrow(
      "store 'shared' is filled by both Twice.one and Twice.two: each aggregation needs its own store",
    );
  });
});

import { Controller, Get, Injectable, Param, Scope, type INestApplication } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { Test } from '@nestjs/testing';
import {
  KafkaStreams,
  KafkaStreamsState,
  RocksDBOptions,
  Serdes,
  type StreamsBuilder,
  TimeWindows,
} from '@nest-streams/streams';
import { Aggregate } from './decorators/aggregate.decorator';
import { Count } from './decorators/count.decorator';
import { InjectStore } from './decorators/inject-store.decorator';
import { StateStore } from './decorators/state-store.decorator';
import { Topology } from './decorators/topology.decorator';
import { RocksDBConfig } from './decorators/rocksdb-config.decorator';
import type { TopologyContext } from './discovery/topology-context';
import { DuplicateStateStoreError } from './errors/duplicate-state-store.error';
import { RequestScopedStreamsProviderError } from './errors/request-scoped-streams-provider.error';
import { UndeclaredStateStoreError } from './errors/undeclared-state-store.error';
import { InvalidStreamsDeclarationError } from './errors/invalid-streams-declaration.error';
import { ConflictingSourceSerdesError } from './errors/conflicting-source-serdes.error';
import { StreamsModuleConfigError } from './errors/streams-module-config.error';
import { KafkaStreamsHost } from './internals/kafka-streams.host';
import { KeyValueStoreFacade } from './queries/key-value-store.facade';
import { WindowStoreFacade } from './queries/window-store.facade';
import { InteractiveQueryService } from './queries/interactive-query.service';
import { StreamsHealthIndicator } from './health/streams-health.indicator';
import { StreamsMetricsService } from './metrics/streams-metrics.service';
import { StreamsModuleSettings } from './internals/streams-module.settings';
import { StreamsModule } from './streams.module';
import type { StreamsModuleOptions } from './streams-module-options.interface';

interface Event {
  userId: string;
  amount: number;
}
interface Stats {
  count: number;
  sum: number;
}

const baseOptions: StreamsModuleOptions = {
  streams: { applicationId: 'module-spec', bootstrapServers: ['127.0.0.1:1'] },
  client: { start: 'manual' },
};

@StateStore('stats-store', { keySerde: Serdes.String(), valueSerde: Serdes.Json<Stats>() })
@StateStore('windowed-count-store', { kind: 'window', retentionMs: 3_600_000 })
@Injectable()
class StatsAggregation {
  calls = 0;

  @Aggregate<string, Event, Stats>({
    source: 'labs.events',
    store: 'stats-store',
    initializer: () => ({ count: 0, sum: 0 }),
    keySerde: Serdes.String(),
    valueSerde: Serdes.Json<Event>(),
  })
  add(_userId: string, event: Event, stats: Stats): Stats {
    this.calls++;
    return { count: stats.count + 1, sum: stats.sum + event.amount };
  }

  @Count<string, Event>({
    source: 'labs.events',
    store: 'windowed-count-store',
    windows: TimeWindows.ofSizeWithNoGrace(300_000),
  })
  countEvent(): void {}
}

async function appWith(
  providers: unknown[],
  options: Partial<StreamsModuleOptions> = {},
  controllers: unknown[] = [],
): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({
    imports: [StreamsModule.forRoot({ ...baseOptions, ...options })],
    providers: providers as never[],
    controllers: controllers as never[],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  await app.init();
  return app;
}

describe('StreamsModule', () => {
  it('forRoot builds the topology from the decorators and injects KafkaStreams', async () => {
    const app = await appWith([StatsAggregation]);
    try {
      const streams = app.get(KafkaStreams);
      expect(streams).toBeInstanceOf(KafkaStreams);
      expect(streams.state).toBe(KafkaStreamsState.CREATED);
      expect([...streams.topology.stores().keys()].sort()).toEqual([
        'stats-store',
        'windowed-count-store',
      ]);
      expect(streams.topology.subtopologies()).toHaveLength(1);
      expect(streams.topology.subtopologies()[0].sourceTopics).toEqual(['labs.events']);
      expect(streams.config.applicationId).toBe('module-spec');
      expect(app.get(InteractiveQueryService)).toBeDefined();
      expect(app.get(StreamsHealthIndicator)).toBeDefined();
    } finally {
      await app.close();
    }
  });

  it('forRootAsync takes its options from ConfigService', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        ConfigModule.forRoot({
          ignoreEnvFile: true,
          load: [() => ({ KAFKA_BROKERS: '127.0.0.1:9999,127.0.0.1:9998', APP_ID: 'from-config' })],
        }),
        StreamsModule.forRootAsync({
          imports: [ConfigModule],
          inject: [ConfigService],
          useFactory: (config: ConfigService): StreamsModuleOptions => ({
            ...baseOptions,
            streams: {
              applicationId: config.getOrThrow<string>('APP_ID'),
              bootstrapServers: config.getOrThrow<string>('KAFKA_BROKERS').split(','),
            },
            http: { retryAfterSeconds: 7 },
          }),
        }),
      ],
      providers: [StatsAggregation],
    }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    try {
      const streams = app.get(KafkaStreams);
      expect(streams.config.applicationId).toBe('from-config');
      expect(streams.config.bootstrapServers).toEqual(['127.0.0.1:9999', '127.0.0.1:9998']);
      expect(app.get(StreamsModuleSettings).retryAfterSeconds).toBe(7);
    } finally {
      await app.close();
    }
  });

  it('forRootAsync accepts a class implementing createStreamsOptions()', async () => {
    @Injectable()
    class OptionsFactory {
      createStreamsOptions(): StreamsModuleOptions {
        return { ...baseOptions, streams: { ...baseOptions.streams, applicationId: 'from-class' } };
      }
    }
    const moduleRef = await Test.createTestingModule({
      imports: [StreamsModule.forRootAsync({ useClass: OptionsFactory })],
      providers: [StatsAggregation],
    }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    try {
      expect(app.get(KafkaStreams).config.applicationId).toBe('from-class');
    } finally {
      await app.close();
    }
  });

  it('injects a read-only store facade with @InjectStore', async () => {
    @Injectable()
    class Reader {
      constructor(@InjectStore('stats-store') readonly stats: KeyValueStoreFacade<string, Stats>) {}
    }
    const app = await appWith([StatsAggregation, Reader]);
    try {
      const reader = app.get(Reader);
      expect(reader.stats).toBeInstanceOf(KeyValueStoreFacade);
      expect(reader.stats.name).toBe('stats-store');
      // Not started: the engine's typed, retriable error.
      expect(() => reader.stats.get('u1')).toThrow(
        expect.objectContaining({ code: 'STREAMS_NOT_STARTED', retriable: true }),
      );
    } finally {
      await app.close();
    }
  });

  it('sees @InjectStore declared after forRoot() ran (providers are read when Nest scans)', async () => {
    const dynamic = StreamsModule.forRoot(baseOptions);
    @Injectable()
    class LateReader {
      constructor(@InjectStore('windowed-count-store', 'window') readonly windows: unknown) {}
    }
    const moduleRef = await Test.createTestingModule({
      imports: [dynamic],
      providers: [StatsAggregation, LateReader],
    }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    try {
      expect(app.get(LateReader).windows).toBeInstanceOf(WindowStoreFacade);
    } finally {
      await app.close();
    }
  });

  it('calls @Topology() methods with the builder and a context sharing source streams', async () => {
    const seen: string[] = [];
    @StateStore('amounts', { valueSerde: Serdes.Json<number>() })
    @Injectable()
    class Extra {
      constructor(readonly settings: StreamsModuleSettings) {}

      @Topology()
      build(builder: StreamsBuilder, context: TopologyContext): void {
        // `this` is the instance, with its injected dependencies.
        seen.push(this.settings.streams.applicationId);
        expect(builder).toBeDefined();
        context
          .stream<string, Event>('labs.events')
          .mapValues((e) => e.amount)
          .groupByKey()
          .reduce((a, b) => a + b, context.materialized('amounts'));
      }
    }
    const app = await appWith([
      StatsAggregation,
      {
        provide: Extra,
        useFactory: (s: StreamsModuleSettings) => new Extra(s),
        inject: [StreamsModuleSettings],
      },
    ]);
    try {
      expect(seen).toEqual(['module-spec']);
      const topology = app.get(KafkaStreams).topology;
      expect([...topology.stores().keys()].sort()).toEqual([
        'amounts',
        'stats-store',
        'windowed-count-store',
      ]);
      // One source for the topic, shared.
      const sources = [...topology.nodeDefs().values()].filter((n) => n.kind === 'source');
      expect(sources).toHaveLength(1);
    } finally {
      await app.close();
    }
  });

  it('adds declared stores for your own processors (key-value, window, session)', async () => {
    @StateStore('own-kv', {
      keySerde: Serdes.String(),
      valueSerde: Serdes.Long(),
      engine: 'in-memory',
    })
    @StateStore('own-window', { kind: 'window', retentionMs: 60_000, windowSizeMs: 1000 })
    @StateStore('own-sessions', { kind: 'session', retentionMs: 60_000 })
    @Injectable()
    class OwnProcessors {
      @Topology()
      build(_builder: StreamsBuilder, context: TopologyContext): void {
        for (const store of ['own-kv', 'own-window', 'own-sessions']) context.addStateStore(store);
        context
          .stream<string, Event>('orders')
          .process(
            () => ({ process: () => undefined }),
            undefined,
            'own-kv',
            'own-window',
            'own-sessions',
          );
      }
    }
    const app = await appWith([OwnProcessors]);
    try {
      const stores = app.get(KafkaStreams).topology.stores();
      expect([...stores.keys()].sort()).toEqual(['own-kv', 'own-sessions', 'own-window']);
      expect(stores.get('own-sessions')?.changelogKind).toBe('session');
    } finally {
      await app.close();
    }
  });

  it('resolves the @RocksDBConfig() provider through DI', async () => {
    @RocksDBConfig()
    @Injectable()
    class Tuning {
      constructor(readonly settings: StreamsModuleSettings) {}
      setConfig(): void {}
    }
    const app = await appWith([
      StatsAggregation,
      {
        provide: Tuning,
        useFactory: (s: StreamsModuleSettings) => new Tuning(s),
        inject: [StreamsModuleSettings],
      },
    ]);
    try {
      const setter = app.get(KafkaStreams).config.rocksDBConfigSetter;
      expect(setter).toBeDefined();
      const spy = jest.spyOn(app.get(Tuning), 'setConfig');
      const options = new RocksDBOptions();
      setter!.setConfig('stats-store', options, {});
      expect(spy).toHaveBeenCalledWith('stats-store', options, {});
    } finally {
      await app.close();
    }
  });

  describe('start-up errors', () => {
    const initError = async (providers: unknown[], options: Partial<StreamsModuleOptions> = {}) => {
      try {
        const app = await appWith(providers, options);
        await app.close();
      } catch (error) {
        return error as Error;
      }
      throw new Error('expected app.init() to fail');
    };

    it('two stores with one name', async () => {
      @StateStore('stats-store')
      @Injectable()
      class Other {}
      const error = await initError([StatsAggregation, Other]);
      expect(error).toBeInstanceOf(DuplicateStateStoreError);
      expect(error.message).toBe(
        "state store 'stats-store' is declared more than once (by StatsAggregation and Other): give each @StateStore its own name",
      );
    });

    it('@Aggregate naming an undeclared store', async () => {
      @Injectable()
      class Orphan {
        @Aggregate<string, Event, number>({
          source: 'labs.events',
          store: 'nowhere',
          initializer: () => 0,
        })
        add(_k: string, e: Event, total: number): number {
          return total + e.amount;
        }
      }
      const error = await initError([Orphan]);
      expect(error).toBeInstanceOf(UndeclaredStateStoreError);
      expect(error.message).toBe(
        "@Aggregate on Orphan.add names state store 'nowhere', which no @StateStore declares (declared: none): add @StateStore('nowhere', ...) to a provider",
      );
    });

    it('a decorator on a request-scoped provider', async () => {
      @StateStore('scoped-store')
      @Injectable({ scope: Scope.REQUEST })
      class Scoped {}
      const error = await initError([Scoped]);
      expect(error).toBeInstanceOf(RequestScopedStreamsProviderError);
      expect(error.message).toBe(
        'Scoped is request-scoped, but carries @StateStore: stream processing runs outside requests, so streams providers must be singletons (remove the scope, or move the decorators to a singleton provider)',
      );
    });

    it('a decorator on a provider that depends on a request-scoped one', async () => {
      @Injectable({ scope: Scope.REQUEST })
      class PerRequest {}
      @StateStore('implicit-store')
      @Injectable()
      class Implicit {
        constructor(readonly perRequest: PerRequest) {}
      }
      const error = await initError([PerRequest, { provide: Implicit, useClass: Implicit }]);
      expect(error).toBeInstanceOf(RequestScopedStreamsProviderError);
      expect(error.message).toContain('Implicit is implicitly request-scoped');
    });

    it('a windowed aggregation into a key-value store', async () => {
      @StateStore('plain')
      @Injectable()
      class Windowed {
        @Count({ source: 't', store: 'plain', windows: TimeWindows.ofSizeWithNoGrace(1000) })
        count(): void {}
      }
      const error = await initError([Windowed]);
      expect(error).toBeInstanceOf(InvalidStreamsDeclarationError);
      expect(error.message).toBe(
        "@Count on Windowed.count aggregates per time window, so store 'plain' must be declared with kind 'window' (it is 'key-value')",
      );
    });

    it('one topic read with two different serdes', async () => {
      @StateStore('a')
      @StateStore('b')
      @Injectable()
      class TwoSerdes {
        @Count({ source: 't', store: 'a', valueSerde: Serdes.String() })
        a(): void {}
        @Count({ source: 't', store: 'b', valueSerde: Serdes.Long() })
        b(): void {}
      }
      const error = await initError([TwoSerdes]);
      expect(error).toBeInstanceOf(ConflictingSourceSerdesError);
      expect(error.message).toBe(
        "topic 't' is read with different value serdes by TwoSerdes.a and TwoSerdes.b: use one serde for a topic",
      );
    });

    it('an invalid module option', async () => {
      const error = await initError([StatsAggregation], {
        streams: { ...baseOptions.streams, applicationServer: '127.0.0.1:8080' },
        queries: { remote: { port: 0 } },
      });
      expect(error).toBeInstanceOf(StreamsModuleConfigError);
      expect(error.message).toBe(
        'queries.remote.port must be a port number (1-65535) that the other instances can reach, got 0',
      );
    });
  });

  it('serves Prometheus metrics and counts routing outcomes', async () => {
    @Controller('stats')
    class StatsController {
      @Get(':id')
      get(@Param('id') id: string): { id: string } {
        return { id };
      }
    }
    const app = await appWith([StatsAggregation], {}, [StatsController]);
    try {
      const metrics = app.get(StreamsMetricsService);
      metrics.recordRouting('forwarded');
      const text = await metrics.metrics();
      expect(text).toContain('kafka_streams_routing_requests_total{outcome="forwarded"} 1');
      expect(text).toContain('kafka_streams_state{state="CREATED"} 1');
      expect(app.get(KafkaStreamsHost).created).toBe(true);
      // The totals the cluster page samples: routing outcomes, and every 503 for a key.
      metrics.recordRouting('unavailable');
      metrics.recordUnavailableAnswer();
      expect(metrics.routingTotals()).toEqual({
        outcomes: { local: 0, forwarded: 1, standby: 0, unavailable: 1 },
        unavailable: 2,
      });
    } finally {
      await app.close();
    }
  });
});

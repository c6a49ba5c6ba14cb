import { Injectable } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { Test } from '@nestjs/testing';
import {
  KafkaStreams,
  KafkaStreamsState,
  RocksDBOptions,
  Serdes,
  type StreamsBuilder,
} from '@nest-streams/streams';
import { InjectStore } from './decorators/inject-store.decorator';
import { StateStore } from './decorators/state-store.decorator';
import { Topology } from './decorators/topology.decorator';
import { RocksDBConfig } from './decorators/rocksdb-config.decorator';
import type { TopologyContext } from './discovery/topology-context';
import { KeyValueStoreFacade } from './queries/key-value-store.facade';
import { WindowStoreFacade } from './queries/window-store.facade';
import { InteractiveQueryService } from './queries/interactive-query.service';
import { StreamsHealthIndicator } from './health/streams-health.indicator';
import { StreamsModuleSettings } from './settings/internals/streams-module.settings';
import { StreamsModule } from './streams.module';
import type { StreamsModuleOptions } from './settings/streams-module-options.interface';

import {
  appWith,
  baseOptions,
  StatsAggregation,
  type Event,
  type Stats,
} from '../test-support/stats-module-fixtures';

/** A provider of `type` made with the module's settings (a dependency of the provider). */
function madeWithSettings<T>(type: new (settings: StreamsModuleSettings) => T) {
  return {
    provide: type,
    useFactory: (settings: StreamsModuleSettings) => new type(settings),
    inject: [StreamsModuleSettings],
  };
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
    const app = await appWith([StatsAggregation, madeWithSettings(Extra)]);
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
    const app = await appWith([StatsAggregation, madeWithSettings(Tuning)]);
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
});

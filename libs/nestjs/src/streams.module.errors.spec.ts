import { Controller, Get, Injectable, Param, Scope } from '@nestjs/common';
import { Serdes, TimeWindows } from '@nest-streams/streams';
import { Aggregate } from './decorators/aggregate.decorator';
import { Count } from './decorators/count.decorator';
import { StateStore } from './decorators/state-store.decorator';
import { DuplicateStateStoreError } from './errors/duplicate-state-store.error';
import { RequestScopedStreamsProviderError } from './errors/request-scoped-streams-provider.error';
import { UndeclaredStateStoreError } from './errors/undeclared-state-store.error';
import { InvalidStreamsDeclarationError } from './errors/invalid-streams-declaration.error';
import { ConflictingSourceSerdesError } from './errors/conflicting-source-serdes.error';
import { StreamsModuleConfigError } from './errors/streams-module-config.error';
import { KafkaStreamsHost } from './client/internals/kafka-streams.host';
import { StreamsMetricsService } from './metrics/streams-metrics.service';
import {
  appWith,
  baseOptions,
  initError,
  StatsAggregation,
  type Event,
} from '../test-support/stats-module-fixtures';

describe('StreamsModule start-up errors', () => {
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

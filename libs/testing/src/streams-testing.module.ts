import {
  KAFKA_STREAMS_FACTORY,
  type KafkaStreams,
  type KafkaStreamsOptions,
  type StreamsConfig,
  StreamsNotStartedError,
  type Topology,
} from '@nest-streams/streams';
import { DriverKafkaStreams } from './internals/driver-kafka-streams';
import { TopologyTestDriver, type TopologyTestDriverOptions } from './topology-test-driver';

/** Options of {@link StreamsTestingModule.forRoot}: the driver's, less the engine settings. */
export type StreamsTestingOptions = Omit<TopologyTestDriverOptions, 'config'>;

/** What {@link StreamsTestingModule.forRoot} returns: a Nest dynamic module (global). */
export interface StreamsTestingDynamicModule {
  readonly module: typeof StreamsTestingModule;
  readonly global: true;
  readonly providers: { provide: symbol | typeof TopologyTestDriver; useValue: unknown }[];
  readonly exports: (symbol | typeof TopologyTestDriver)[];
}

/**
 * Runs the application's streams in a {@link TopologyTestDriver} instead of against a broker:
 * import it beside the application's module in a Nest test, and the topology the decorators
 * (`@StateStore`, `@Aggregate`, `@Count`, `@Reduce`, `@Topology()`) declare runs in the driver,
 * with the application's own `StreamsModule` options (serdes, handlers, application id). The
 * client starts in `app.init()`; `@InjectStore` facades, `InteractiveQueryService`,
 * `@RouteByKey` routes and the health indicator answer from the driver's stores, as one
 * instance owning every partition. Inject `TopologyTestDriver` to pipe records in.
 *
 * @example
 * const moduleRef = await Test.createTestingModule({
 *   imports: [AppModule, StreamsTestingModule.forRoot()],
 * }).compile();
 * const app = moduleRef.createNestApplication();
 * await app.init();
 * const driver = app.get(TopologyTestDriver);
 * await driver
 *   .createInputTopic('labs.events', Serdes.String(), Serdes.Json<OrderEvent>())
 *   .pipeInput('alice', { userId: 'alice', amount: 10 }, 1_000);
 * await request(app.getHttpServer()).get('/stats/alice').expect(200, { count: 1, sum: 10 });
 * await app.close();
 *
 * No instance-to-instance query server is started, nor any connection made: the application's
 * `bootstrapServers` are never contacted. Errors of a processor surface from `pipeInput`.
 */
export class StreamsTestingModule {
  /**
   * The module (global: `StreamsModule` finds its client factory wherever it is imported).
   * Each call makes its own driver: one per application.
   */
  static forRoot(options: StreamsTestingOptions = {}): StreamsTestingDynamicModule {
    let client: DriverKafkaStreams | undefined;
    const factory = {
      start: 'blocking' as const,
      standalone: true,
      create(topology: Topology, config: StreamsConfig, engine: KafkaStreamsOptions): KafkaStreams {
        client = new DriverKafkaStreams(topology, config, engine, options);
        return client;
      },
    };
    const driver = driverProxy(() => {
      if (!client) {
        throw new StreamsNotStartedError(
          'the application has no streams client yet: import StreamsModule.forRoot(...) in the application and call app.init() first',
        );
      }
      return client.driver;
    });
    return {
      module: StreamsTestingModule,
      global: true,
      providers: [
        { provide: KAFKA_STREAMS_FACTORY, useValue: factory },
        { provide: TopologyTestDriver, useValue: driver },
      ],
      exports: [KAFKA_STREAMS_FACTORY, TopologyTestDriver],
    };
  }
}

/**
 * What `TopologyTestDriver` injects: an object that is `instanceof TopologyTestDriver` and
 * forwards every call to the application's driver, which exists once the client started.
 */
function driverProxy(current: () => TopologyTestDriver): TopologyTestDriver {
  const target = Object.create(TopologyTestDriver.prototype) as TopologyTestDriver;
  return new Proxy(target, {
    get: (stub, property) => {
      // Nest looks for lifecycle hooks and `then` on every provider: answer those from the
      // stand-in, and only the driver's own members from the driver.
      if (property === 'constructor') return TopologyTestDriver;
      if (!(property in TopologyTestDriver.prototype)) return Reflect.get(stub, property);
      const real = current();
      const value: unknown = Reflect.get(real, property, real);
      return typeof value === 'function'
        ? (value as (...a: unknown[]) => unknown).bind(real)
        : value;
    },
  });
}

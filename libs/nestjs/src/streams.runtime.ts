import {
  Inject,
  Injectable,
  Logger,
  Optional,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { KafkaStreams, KafkaStreamsState } from '@nest-streams/streams';
import { storeInjections } from './decorators/inject-store.decorator';
import { checkStoreInjections } from './discovery/internals/store-injection.check';
import { StreamsExplorer } from './discovery/internals/streams.explorer';
import { StreamsTopologyFactory } from './discovery/internals/streams-topology.factory';
import { InvalidStreamsDeclarationError } from './errors/invalid-streams-declaration.error';
import { StreamsStateTracker } from './health/internals/streams-state.tracker';
import { KafkaStreamsHost } from './client/internals/kafka-streams.host';
import { StreamsMetricsService } from './metrics/streams-metrics.service';
import { InteractiveQueryServer } from './queries/internals/interactive-query.server';
import { InteractiveQueryClient } from './queries/internals/interactive-query.client';
import { applicationInjections } from './queries/internals/store-facade.providers';
import type { KafkaStreamsFactory } from './client/kafka-streams.factory';
import { KAFKA_STREAMS_FACTORY } from './streams.constants';
import { nestStreamsLogger } from './client/internals/nest-streams.logger';
import { StreamsModuleSettings } from './settings/internals/streams-module.settings';

/**
 * Runs the application's `KafkaStreams` with the Nest lifecycle:
 * - module init: finds the decorated parts, builds the topology, creates the client;
 * - application bootstrap: starts the query server (when remote queries are on), then the
 *   client (per `client.start`: in the background by default);
 * - shutdown (`app.close()`, or a signal with `enableShutdownHooks()`): readiness goes down,
 *   requests are answered for `shutdown.drainMs`, then the client closes cleanly (flush,
 *   checkpoint, commit, leave the group), then the query server and clients.
 *
 * Errors: module init throws the start-up errors of the explorer and the topology
 * (`DuplicateStateStoreError`, `UndeclaredStateStoreError`, ...) and the engine's
 * `TopologyError`; bootstrap throws when the query server cannot listen and, with
 * `client.start: 'blocking'`, what `KafkaStreams.start()` throws (`MissingSourceTopicError`:
 * create the topics; `StateDirectoryLockedError`: another process uses the state directory).
 * Each fails `app.init()` / `app.listen()`. In the background mode those start errors are
 * logged, the client goes to ERROR and the process exits with code 1 (`client.exitOnStartFailure`;
 * with false it stays up, liveness failing, so Kubernetes restarts the pod).
 */
@Injectable()
export class StreamsRuntime
  implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown
{
  private readonly logger = new Logger('KafkaStreams');

  constructor(
    @Inject(StreamsModuleSettings) private readonly settings: StreamsModuleSettings,
    @Inject(StreamsExplorer) private readonly explorer: StreamsExplorer,
    @Inject(KafkaStreamsHost) private readonly host: KafkaStreamsHost,
    @Inject(StreamsStateTracker) private readonly tracker: StreamsStateTracker,
    @Inject(StreamsMetricsService) private readonly metrics: StreamsMetricsService,
    @Inject(InteractiveQueryServer) private readonly queryServer: InteractiveQueryServer,
    @Inject(InteractiveQueryClient) private readonly queryClient: InteractiveQueryClient,
    @Inject(DiscoveryService) private readonly discovery: DiscoveryService,
    @Optional()
    @Inject(KAFKA_STREAMS_FACTORY)
    private readonly factory: KafkaStreamsFactory | undefined,
  ) {}

  onModuleInit(): void {
    const { streams: config, client } = this.settings;
    const declarations = this.explorer.explore();
    let engineConfig = config;
    if (declarations.rocksDBConfig) {
      if (config.rocksDBConfigSetter) {
        throw new InvalidStreamsDeclarationError(
          `both the module options (streams.rocksDBConfigSetter) and @RocksDBConfig() on ${declarations.rocksDBConfig.declaredBy} set the RocksDB config setter: keep one`,
        );
      }
      engineConfig = { ...config, rocksDBConfigSetter: declarations.rocksDBConfig.setter };
    }
    const logger = nestStreamsLogger();
    const topology = new StreamsTopologyFactory(declarations, {
      defaultKeySerde: config.defaultKeySerde,
      defaultValueSerde: config.defaultValueSerde,
      logger,
    }).build();
    const injections = new Map(
      [...storeInjections()].map(([name, uses]) => [
        name,
        applicationInjections(this.discovery, uses),
      ]),
    );
    checkStoreInjections(injections, this.host.facadeKinds, declarations, topology);
    const streams = this.factory
      ? this.factory.create(topology, engineConfig, { logger })
      : new KafkaStreams(topology, engineConfig, { logger });
    if (client.uncaughtExceptionHandler) {
      streams.setUncaughtExceptionHandler(client.uncaughtExceptionHandler);
    }
    this.tracker.attach(streams, client.restoreListener);
    this.host.set(streams, declarations);
    this.metrics.attach(streams);
  }

  /**
   * Starts the query server (its port is bound before anything else, so a port in use fails
   * `app.init()`), then the client per `client.start`: `background` does not wait (HTTP serves
   * the probes meanwhile; a start error is logged, leaves the client in ERROR and ends the
   * process unless `client.exitOnStartFailure` is false), `blocking` waits and rejects with the
   * start error, `manual` leaves it to the application.
   */
  async onApplicationBootstrap(): Promise<void> {
    const { security, self, remoteQueries } = this.settings;
    if (security.derivedKey && (self !== undefined || remoteQueries !== undefined)) {
      this.logger.warn(
        'security.insecure: instance-to-instance queries and forwarded requests are authenticated with a key derived from the application id: anyone who knows it can read every store. Set security.clusterSecret outside local development.',
      );
    }
    if (!this.factory?.standalone) await this.queryServer.listen();
    const configured = this.settings.client.start;
    const mode = configured === 'manual' ? configured : (this.factory?.start ?? configured);
    if (mode === 'manual') return;
    if (mode === 'blocking') {
      await this.host.streams.start();
      return;
    }
    // The engine logs a start error itself and goes to ERROR (liveness then fails).
    this.host.streams.start().catch(() => this.onBackgroundStartFailure());
  }

  /**
   * A background start failed (the client in ERROR, not closed by a shutdown): with
   * `client.exitOnStartFailure` (the default) the process exits with code 1, for its supervisor
   * to restart it. The engine logged the cause with what to do; this says only what follows.
   */
  private onBackgroundStartFailure(): void {
    if (this.settings.client.exitOnStartFailure === false || this.tracker.shuttingDown) return;
    if (this.host.streams.state !== KafkaStreamsState.ERROR) return;
    this.logger.error(
      'the process exits with code 1: the client could not start (client.exitOnStartFailure)',
    );
    process.exit(1);
  }

  /**
   * The shutdown: readiness goes down at once (the load balancer stops sending requests),
   * requests are still answered for `shutdown.drainMs`, then the client closes cleanly (commit,
   * flush, checkpoint, leave the group: the other members take its tasks over at once).
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.tracker.markShuttingDown();
    if (!this.host.created) return;
    if (this.settings.drainMs > 0 && this.host.streams.state !== KafkaStreamsState.CREATED) {
      this.logger.log(`shutting down: answering requests for ${this.settings.drainMs} ms more`);
      await new Promise((resolve) => setTimeout(resolve, this.settings.drainMs));
    }
    await this.host.streams.close();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queryServer.close();
    await this.queryClient.close();
  }
}

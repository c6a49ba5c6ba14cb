import * as path from 'node:path';
import type { ClusterAdmin } from '../../../client/cluster-admin';
import type { KafkaClientAdapters } from '../../../client/kafka-client-adapters';
import type { StreamsLogger } from '../../../logging/logger';
import { InternalConfig } from '../../../processor/internals/internal-config';
import type { Topology } from '../../../processor/topology';
import type { Position } from '../../../query/position';
import type { StateRestoreListener } from '../../state-restore-listener';
import type { ResolvedStreamsConfig } from '../../streams-config';
import { GlobalStoreUpdater } from './global-store-updater';
import { GlobalStreamThread } from './global-stream-thread';

/** A global store as queries see it (see {@link GlobalStores.queryable}). */
export interface GlobalStoreCopy {
  /** The store, once restored; `undefined` while it restores. */
  readonly store: unknown;
  /** How far the store's topic was read (the position of an IQv2 answer). */
  position(): Position;
}

/** What a client's global stores are made of. */
export interface GlobalStoresOptions {
  readonly topology: Topology;
  readonly config: ResolvedStreamsConfig;
  readonly clients: KafkaClientAdapters;
  readonly admin: ClusterAdmin;
  readonly logger: StreamsLogger;
  readonly cache?: object;
  /** Called once when the stores stop updating for good (the client then stops). */
  readonly onError: (error: Error) => void;
  /** The client's restore listener, told of the global stores' restore too. */
  readonly restoreListener?: () => StateRestoreListener | undefined;
}

/**
 * A client's global stores (`StreamsBuilder.globalTable`, `addGlobalStore`): their updater
 * and the thread keeping them whole, under `<stateDir>/<applicationId>/global`. What the
 * client starts before its stream thread, hands its tasks ({@link taskConfig}) and answers
 * `store()` from ({@link queryable}).
 */
export class GlobalStores {
  private readonly updater: GlobalStoreUpdater;
  private readonly thread: GlobalStreamThread;

  private constructor(private readonly options: GlobalStoresOptions) {
    const { topology, config, clients, admin, logger, cache, onError, restoreListener } = options;
    const globalDir = path.resolve(config.stateDir, config.applicationId, 'global');
    this.updater = new GlobalStoreUpdater({ topology, config, globalDir, logger, cache });
    this.thread = new GlobalStreamThread({
      config,
      admin,
      reader: clients.assignedReaders({ headers: true }),
      updater: this.updater,
      globalDir,
      logger,
      onError,
      restoreListener,
    });
  }

  /** The global stores of `options.topology`; `undefined` when it has none. */
  static of(options: GlobalStoresOptions): GlobalStores | undefined {
    return options.topology.globalStores().size > 0 ? new GlobalStores(options) : undefined;
  }

  /** Opens and restores the stores, then keeps them up to date; throws as `GlobalStreamThread.start`. */
  start(): Promise<void> {
    return this.thread.start();
  }

  /** Stops updating; checkpoints and closes the stores. Never throws: a failure is logged. */
  async stop(): Promise<void> {
    await this.thread.stop().catch((error: unknown) => {
      this.options.logger.warn(`stopping the global stores failed: ${String(error)}`);
    });
  }

  /**
   * `config` with the global stores for the tasks' processors (`getStateStore` of a global
   * store, `InternalConfig.GLOBAL_STATE_STORES`).
   */
  taskConfig(config: ResolvedStreamsConfig): ResolvedStreamsConfig {
    return Object.assign(
      { ...config },
      { [InternalConfig.GLOBAL_STATE_STORES]: this.updater.stores },
    );
  }

  /**
   * `undefined` for a store that is not global; else the store, once restored (`undefined`
   * in `store` while it restores), and how far the global topics were read.
   */
  queryable(name: string): GlobalStoreCopy | undefined {
    const def = this.options.topology.globalStores().get(name);
    if (def === undefined) return undefined;
    return {
      store: this.thread.restored ? this.updater.stores.get(name) : undefined,
      position: () => {
        const read = this.thread.position()[def.topic];
        return read === undefined ? {} : { [def.topic]: read };
      },
    };
  }
}

import type { RecordCollector } from '../../../processor/internals/record-collector';
import { TaskId } from '../../../processor/task-id';
import type { Topology } from '../../../processor/topology';
import type {
  ChangelogRecord,
  StateStoreContext,
  StoreRegistration,
} from '../../../processor/state-store-context';
import type { StateStore } from '../../../processor/state-store';
import { TaskEngines } from '../../../state/internals/task-engines';
import type { StateDirectory } from '../task-state/state-directory';
import type { StateLogger } from '../../../logging/logger';
import type { ResolvedStreamsConfig } from '../../streams-config';
import { TaskStateManager } from '../task-state/task-state-manager';

/** A collector for standby stores: they never write (they only apply the changelog). */
const NO_WRITES: RecordCollector = {
  send: () => {
    throw new Error('a standby task never writes to its changelog');
  },
  flush: () => Promise.resolve(),
  offset: () => undefined,
  offsets: () => [],
};

/** One changelog partition a standby store follows. */
export interface StandbyPartition {
  readonly storeName: string;
  readonly topic: string;
  readonly partition: number;
  /** Next offset to apply. */
  position: number;
  readonly registration: StoreRegistration;
}

/**
 * A standby task (Kafka Streams' `StandbyTask`): the same stores as the active task of that
 * id, kept up to date by applying their changelogs continuously, checkpointed like an active
 * task, so that taking the task over costs only the records it lags behind. Stores are
 * readable as stale stores.
 */
export class StandbyTask {
  readonly id: TaskId;
  private readonly stores = new Map<string, StateStore>();
  private stateManager: TaskStateManager | undefined;
  /** The persistent engines of its stores, flushed before each checkpoint. */
  private readonly engines = new TaskEngines();
  readonly partitions: StandbyPartition[] = [];
  private appliedSinceCheckpoint = 0;
  /** Changelog records applied since the task was created (its `update-total`). */
  updated = 0;

  constructor(
    taskId: string,
    private readonly topology: Topology,
    private readonly config: ResolvedStreamsConfig,
    private readonly stateDirectory: StateDirectory,
    private readonly logger: StateLogger,
  ) {
    this.id = TaskId.parse(taskId);
  }

  /** Opens the stores and loads the checkpoint; positions start at checkpoint + 1 (or 0). */
  async initialize(): Promise<void> {
    const sub = this.topology.subtopology(this.id.subtopologyId);
    const registrations: StoreRegistration[] = [];
    const context: StateStoreContext = {
      applicationId: this.config.applicationId,
      taskId: this.id,
      appConfigs: this.engines.attachTo(this.config as unknown as Record<string, unknown>),
      taskDir: await this.stateDirectory.taskDir(this.id),
      recordCollector: NO_WRITES,
      currentTimestamp: () => 0,
      register: (r) => registrations.push(r),
    };
    for (const name of sub.stores) {
      const store = this.topology.stores().get(name)!.build();
      await store.init(context);
      this.stores.set(name, store);
    }
    this.stateManager = new TaskStateManager({
      taskId: this.id,
      stateDirectory: this.stateDirectory,
      registrations,
      recordCollector: NO_WRITES,
      exactlyOnce: this.config.processingGuarantee === 'exactly_once_v2',
      engines: this.engines,
      logger: this.logger,
    });
    await this.stateManager.initialize();
    for (const target of this.stateManager.restoreTargets()) {
      this.partitions.push({
        storeName: target.storeName,
        topic: target.topic,
        partition: target.partition,
        position: target.startOffset ?? 0,
        registration: registrations.find((r) => r.name === target.storeName)!,
      });
    }
  }

  /** Applies one fetched changelog batch to its store (one write batch). */
  async apply(
    partition: StandbyPartition,
    records: readonly ChangelogRecord[],
    lastOffset: number,
  ): Promise<void> {
    if (records.length > 0) await partition.registration.restoreBatch(records);
    if (lastOffset + 1 > partition.position) {
      partition.position = lastOffset + 1;
      this.stateManager!.recordAppliedOffset(partition.storeName, lastOffset);
    }
    this.appliedSinceCheckpoint += records.length;
    this.updated += records.length;
  }

  /**
   * Flushes the stores and writes the checkpoint when anything was applied (the state manager
   * flushes the engines first; under exactly-once only where the stores are crash-safe: a
   * standby applies committed changelog records only).
   */
  async checkpoint(force = false): Promise<void> {
    if (!force && this.appliedSinceCheckpoint === 0) return;
    for (const store of this.stores.values()) await store.flush();
    if (this.stateManager!.checkpoints) await this.stateManager!.checkpoint();
    this.appliedSinceCheckpoint = 0;
  }

  store(name: string): StateStore | undefined {
    return this.stores.get(name);
  }

  /** Sum of changelog positions, reported to the assignor as this task's local state. */
  offsetSum(): number {
    return this.partitions.reduce((n, p) => n + p.position, 0);
  }

  /** Closes cleanly: flush, checkpoint (kept for a later takeover), close the stores. */
  async close(): Promise<void> {
    for (const store of this.stores.values()) await store.flush();
    for (const store of this.stores.values()) await store.close();
    await this.stateManager?.close(true);
  }
}

import { CorruptCheckpointError } from '../../../errors/internals/corrupt-checkpoint.error';
import type { RecordCollector } from '../../../processor/internals/record-collector';
import { topicPartitionKey, type TopicPartitionOffset } from '../../../processor/topic-partition';
import type { TaskId } from '../../../processor/task-id';
import { OffsetCheckpoint } from '../../../state/internals/offset-checkpoint';
import { TaskEngines } from '../../../state/internals/task-engines';
import type { StoreRegistration } from '../../../processor/state-store-context';
import type { StateDirectory } from './state-directory';
import { consoleStateLogger, type StateLogger } from '../../../logging/logger';
import type { StateRestoreListener } from '../../state-restore-listener';
import type { RestoreResult, RestoreTarget } from '../restore/restore-target';
import type { StateRestorer } from '../restore/state-restorer';
import { commitPhase } from '../commit/commit-phases';

/** Kafka Streams' `OFFSET_DELTA_THRESHOLD_FOR_CHECKPOINT`: changelog records between checkpoints. */
export const CHECKPOINT_OFFSET_DELTA_THRESHOLD = 10_000;

/** Options of a {@link TaskStateManager}. */
export interface TaskStateManagerOptions {
  readonly taskId: TaskId;
  readonly stateDirectory: StateDirectory;
  /** The task's opened stores, as they registered themselves. */
  readonly registrations: readonly StoreRegistration[];
  /** The task's collector: its acknowledged offsets are what checkpoints record. */
  readonly recordCollector: RecordCollector;
  /** `processing.guarantee=exactly_once_v2`. */
  readonly exactlyOnce: boolean;
  /**
   * The task's persistent engines (flushed before each checkpoint). Stores whose engines are
   * all in it hold only committed state under exactly-once; default: none.
   */
  readonly engines?: TaskEngines;
  readonly logger?: StateLogger;
  /** Changelog records written between two checkpoints on commit; default 10,000. */
  readonly checkpointThreshold?: number;
}

/**
 * A task's changelog offsets and checkpoint file, with Kafka Streams' rules (where a commit
 * calls them: `commit-protocol.ts`):
 *
 * - `initialize()` reads `.checkpoint`. A corrupt file is deleted with a warning and every
 *   persistent store is wiped and fully restored.
 * - `restore()` restores every logged store from its offset + 1 (in-memory stores from the
 *   beginning), then writes a checkpoint.
 * - `checkpointIfNeeded()` after each commit starts a checkpoint when the changelogs moved more
 *   than 10,000 records since the last one, in the background: processing goes on while the
 *   engines flush, and the next one starts only once it is written.
 * - Every checkpoint takes the offsets first, then flushes the task's engines (their memtables),
 *   then writes the file, so that it never claims more than the store files hold: a restart
 *   opens the stores, reads the offsets and restores only the tail, with no WAL to replay.
 * - `close(clean)`: a clean close always writes the checkpoint; a dirty close writes nothing.
 *
 * Under exactly-once the stores' engines hold only committed transactions (see `TaskEngines`),
 * so the same rules hold and an unclean stop costs only the tail after the last checkpoint:
 * the checkpoint records the offsets of committed transactions only (`recordCommitted`), and a
 * persistent store without a checkpointed offset is wiped and restored. For a task with a
 * persistent store whose engine is not managed that way (a store supplier of your own), Kafka
 * Streams' older rules apply: the file is deleted on start and only written on a clean close,
 * and a dirty close wipes the task's state.
 *
 * Only persistent, logged stores are checkpointed.
 */
export class TaskStateManager {
  private readonly logger: StateLogger;
  private readonly checkpointFile: OffsetCheckpoint;
  private readonly threshold: number;
  /** Offset of the last changelog record each logged store holds, by store name. */
  private readonly offsets = new Map<string, number | undefined>();
  private checkpointed = new Map<string, number>();
  /** The checkpoint `checkpointIfNeeded` started and that is not written yet. */
  private background: Promise<void> | undefined;
  /** The last file write: writes of the same file happen one after the other. */
  private lastWrite: Promise<void> = Promise.resolve();
  private initialized = false;
  private readonly engines: TaskEngines;
  /** Under exactly-once: every persistent logged store holds only committed state. */
  private readonly crashSafe: boolean;

  constructor(private readonly options: TaskStateManagerOptions) {
    this.logger = options.logger ?? consoleStateLogger;
    this.engines = options.engines ?? new TaskEngines();
    this.crashSafe = options.registrations.every(
      (r) => !r.persistent || !r.changelog || this.engines.covers(r.name),
    );
    this.checkpointFile = new OffsetCheckpoint(
      options.stateDirectory.checkpointFilePath(options.taskId),
    );
    this.threshold = options.checkpointThreshold ?? CHECKPOINT_OFFSET_DELTA_THRESHOLD;
  }

  /**
   * Loads the checkpoint and wipes the stores that cannot be trusted (see the class).
   *
   * @throws the file system's errors other than a corrupt checkpoint (EACCES...): fix the
   *   state directory; the engine's `ProcessorStateError` from a wipe: close the task dirty.
   */
  async initialize(): Promise<void> {
    const { taskId, exactlyOnce } = this.options;
    let checkpoint = new Map<string, TopicPartitionOffset>();
    let corrupt = false;
    try {
      checkpoint = await this.checkpointFile.read();
    } catch (error) {
      if (!(error instanceof CorruptCheckpointError)) throw error;
      corrupt = true;
      this.logger.warn(
        `task ${taskId}: ${error.message}; restoring every store from the beginning`,
      );
      await this.checkpointFile.delete();
    }
    if (exactlyOnce && !this.crashSafe) await this.checkpointFile.delete();

    for (const registration of this.options.registrations) {
      const { changelog, name, persistent } = registration;
      if (!changelog) continue;
      let offset = persistent
        ? checkpoint.get(topicPartitionKey(changelog.topic, changelog.partition))?.offset
        : undefined;
      if (persistent && corrupt) {
        await registration.wipe();
      } else if (persistent && exactlyOnce && offset === undefined) {
        this.logger.warn(
          `task ${taskId}: store ${name} has no checkpoint under exactly-once; wiping it and restoring from the changelog`,
        );
        await registration.wipe();
        offset = undefined;
      }
      this.offsets.set(name, offset);
      if (offset !== undefined) this.checkpointed.set(name, offset);
    }
    this.initialized = true;
  }

  /** What {@link restore} will read: one target per logged store. */
  restoreTargets(): RestoreTarget[] {
    this.requireInitialized();
    const targets: RestoreTarget[] = [];
    for (const registration of this.options.registrations) {
      const { changelog } = registration;
      if (!changelog) continue;
      const offset = this.offsets.get(registration.name);
      targets.push({
        storeName: registration.name,
        topic: changelog.topic,
        partition: changelog.partition,
        startOffset: offset === undefined ? undefined : offset + 1,
        // What the store holds moves with each batch, so a restore stopped part-way can be
        // checkpointed (see checkpointRestoreProgress); a wipe leaves it holding nothing.
        restoreBatch: async (records, lastOffset) => {
          await registration.restoreBatch(records);
          this.offsets.set(registration.name, lastOffset);
        },
        wipe: async () => {
          await registration.wipe();
          this.offsets.set(registration.name, undefined);
        },
      });
    }
    return targets;
  }

  /**
   * Restores every logged store up to its changelog's current end, flushes the stores and
   * writes the checkpoint (under exactly-once only when its stores are crash-safe).
   *
   * @throws ChangelogRestoreError from the restorer: retry, or close the task dirty.
   */
  async restore(
    restorer: StateRestorer,
    options: { listener?: StateRestoreListener; signal?: AbortSignal } = {},
  ): Promise<RestoreResult[]> {
    const results = await restorer.restore(this.restoreTargets(), options);
    for (const result of results) {
      if (result.lastOffset !== undefined) this.offsets.set(result.storeName, result.lastOffset);
    }
    for (const registration of this.options.registrations) {
      if (registration.changelog) await registration.store.flush();
    }
    if (this.checkpoints) await this.checkpoint();
    return results;
  }

  /** Whether checkpoints are written while the task runs (not under old exactly-once rules). */
  get checkpoints(): boolean {
    return !this.options.exactlyOnce || this.crashSafe;
  }

  /**
   * Under exactly-once, call once the task's transaction committed and its writes reached the
   * engines: the changelog offsets acknowledged so far belong to committed transactions, and
   * only those are checkpointed.
   */
  recordCommitted(): void {
    this.updateFromCollector();
  }

  /**
   * Call after a commit flushed the caches and the collector (under exactly-once: after
   * `recordCommitted`): records the acknowledged changelog offsets and, when they moved more
   * than the threshold since the last checkpoint and none is being written, starts one in the
   * background (see {@link whenCheckpointed}). Returns whether it started one. A background
   * checkpoint that fails is logged as a warning: the last checkpoint stays, and the next one
   * starts after the threshold again.
   */
  checkpointIfNeeded(): boolean {
    if (!this.options.exactlyOnce) this.updateFromCollector();
    if (!this.checkpoints || this.background !== undefined) return false;
    let delta = 0;
    for (const [name, offset] of this.offsets) {
      if (offset !== undefined) delta += offset - (this.checkpointed.get(name) ?? 0);
    }
    if (delta <= this.threshold) return false;
    this.background = this.checkpoint()
      .catch((error: unknown) => {
        this.logger.warn(`task ${this.options.taskId}: checkpoint failed: ${String(error)}`);
      })
      .finally(() => {
        this.background = undefined;
      });
    return true;
  }

  /** Resolves once the background checkpoint, if any, is written or has failed. */
  async whenCheckpointed(): Promise<void> {
    await this.background;
  }

  /**
   * Takes the persistent logged stores' offsets (under exactly-once, those of committed
   * transactions), flushes the task's engines, then writes the checkpoint with those offsets.
   * Writes made after it started are not claimed, even when the flush made them durable too.
   *
   * @throws the engine's `ProcessorStateError` (flush) or the file system's errors: the last
   *   checkpoint stays, so a later restart restores a longer tail.
   */
  async checkpoint(): Promise<void> {
    this.requireInitialized();
    if (!this.options.exactlyOnce || !this.crashSafe) this.updateFromCollector();
    await this.writeCheckpoint();
  }

  /**
   * After a restore that stopped part-way (cancelled: a rebalance took the task away, or the
   * thread stops): flushes the stores and checkpoints what the restore wrote, so the task's next
   * restore here reads only the rest, as Kafka Streams checkpoints a restoring task it closes.
   * Unlike {@link checkpoint} it takes no offsets from the record collector: the task wrote
   * none, and the collector may hold an earlier incarnation's. Does nothing before `initialize`.
   *
   * @throws the engines' flush errors or the file system's: the last checkpoint stays.
   */
  async checkpointRestoreProgress(): Promise<void> {
    if (!this.initialized) return;
    for (const registration of this.options.registrations) {
      if (registration.changelog) await registration.store.flush();
    }
    await this.writeCheckpoint();
  }

  private async writeCheckpoint(): Promise<void> {
    const entries: TopicPartitionOffset[] = [];
    const written = new Map<string, number>();
    for (const registration of this.options.registrations) {
      const offset = this.offsets.get(registration.name);
      if (!registration.changelog || !registration.persistent || offset === undefined) continue;
      entries.push({ ...registration.changelog, offset });
      written.set(registration.name, offset);
    }
    await this.engines.flush();
    commitPhase('stores-flushed', this.options.taskId.toString());
    const write = this.lastWrite.then(async () => {
      await this.options.stateDirectory.taskDir(this.options.taskId);
      await this.checkpointFile.write(entries);
    });
    this.lastWrite = write.catch(() => undefined);
    await write;
    this.checkpointed = written;
    commitPhase('checkpoint-written', this.options.taskId.toString());
  }

  /**
   * Call after the task closed its stores. A clean close writes the checkpoint (under
   * exactly-once too); a dirty close leaves the last checkpoint, except under exactly-once
   * with stores that are not crash-safe, where it wipes the task's state. A task that never
   * finished restoring (`'restoring'`) keeps its state and checkpoint as they are (see
   * {@link checkpointRestoreProgress}). Either way the task directory is marked released.
   */
  async close(clean: boolean | 'restoring'): Promise<void> {
    const { taskId, stateDirectory, exactlyOnce } = this.options;
    await this.whenCheckpointed();
    if (clean === 'restoring') {
      // It processed nothing: its stores hold committed changelog records only.
    } else if (clean) {
      await this.checkpoint();
    } else if (exactlyOnce && !this.crashSafe) {
      this.logger.warn(`task ${taskId}: closed dirty under exactly-once; wiping its state`);
      await stateDirectory.wipeTask(taskId);
      return;
    }
    await stateDirectory.touchTaskDir(taskId);
  }

  /**
   * Records that a store applied changelog records up to `lastOffset` outside `restore()`
   * (standby tasks apply the changelog continuously).
   */
  recordAppliedOffset(storeName: string, lastOffset: number): void {
    const current = this.offsets.get(storeName);
    if (current === undefined || lastOffset > current) this.offsets.set(storeName, lastOffset);
  }

  /** Each logged store's changelog position (the offset of the last record it holds). */
  changelogOffsets(): TopicPartitionOffset[] {
    const result: TopicPartitionOffset[] = [];
    for (const registration of this.options.registrations) {
      const offset = this.offsets.get(registration.name);
      if (registration.changelog && offset !== undefined)
        result.push({ ...registration.changelog, offset });
    }
    return result;
  }

  private updateFromCollector(): void {
    for (const registration of this.options.registrations) {
      const changelog = registration.changelog;
      if (!changelog) continue;
      const acked = this.options.recordCollector.offset(changelog.topic, changelog.partition);
      const current = this.offsets.get(registration.name);
      if (acked !== undefined && (current === undefined || acked > current)) {
        this.offsets.set(registration.name, acked);
      }
    }
  }

  private requireInitialized(): void {
    if (!this.initialized) throw new Error('TaskStateManager.initialize() must run first');
  }
}

import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  type BatchSender,
  KafkaRecordCollector,
} from '../src/processor/internals/kafka-record-collector';
import { TaskId } from '../src/processor/task-id';
import type { TopicPartition } from '../src/processor/topic-partition';
import { Serdes } from '../src/serde/serdes';
import { changelogTopicName } from '../src/state/internals/changelog-topic-name';
import type { MeteredKeyValueStore } from '../src/state/internals/metered/metered-key-value-store';
import type { StateStoreContext, StoreRegistration } from '../src/processor/state-store-context';
import { Stores } from '../src/state/stores';
import type { StateRestoreListener } from '../src/runtime/state-restore-listener';
import { ChangelogTopics } from '../src/runtime/internals/topics/changelog-topics';
import { StateDirectory } from '../src/runtime/internals/task-state/state-directory';
import type { RestoreResult } from '../src/runtime/internals/restore/restore-target';
import { StateRestorer } from '../src/runtime/internals/restore/state-restorer';
import { KafkajsClusterAdmin } from '../src/client/kafkajs/kafkajs-cluster-admin';
import { KafkajsRecordProducer } from '../src/client/kafkajs/kafkajs-record-producer';
import { TaskStateManager } from '../src/runtime/internals/task-state/task-state-manager';
import { RecordCache } from '../src/state/internals/record-cache';
import { KafkaTestContext } from '../../../test/support/kafka-test-context';
import type { AssignedPartitionReaderFactory } from '../src/client/assigned-partition-reader';
import type { RecordProducer } from '../src/client/record-producer';
import { ASSIGNED_READER_FACTORIES, type AssignedReaderClient } from './assigned-reader-factories';
import { RecordingLogger } from './recording-logger';

export const STORE = 'counts-store';
export const PARTITIONS = 3;
export const TASK = new TaskId(0, 2);

export { RecordingLogger };

/** Collects restore listener calls. */
export class RecordingRestoreListener implements StateRestoreListener {
  readonly starts: { tp: TopicPartition; store: string; start: number; end: number }[] = [];
  readonly batches: { end: number; count: number }[] = [];
  readonly ends: { store: string; total: number }[] = [];
  onRestoreStart(tp: TopicPartition, store: string, start: number, end: number): void {
    this.starts.push({ tp, store, start, end });
  }
  onBatchRestored(_tp: TopicPartition, _store: string, end: number, count: number): void {
    this.batches.push({ end, count });
  }
  onRestoreEnd(_tp: TopicPartition, store: string, total: number): void {
    this.ends.push({ store, total });
  }
  get totalRestored(): number {
    return this.ends.reduce((n, e) => n + e.total, 0);
  }
}

export async function tempStateDir(): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), 'state-it-'));
}

/** What {@link useChangelogBroker} gives each test (read inside the test). */
export interface ChangelogBroker {
  readonly ctx: KafkaTestContext;
  /** A connected idempotent producer of `ctx`. */
  readonly producer: RecordProducer;
  /** A new temporary state directory, removed after the test. */
  stateDir(): Promise<string>;
}

/**
 * For each test of the calling `describe`: a broker context with the store's changelog created
 * ({@link createChangelog}), a connected producer, and temporary state directories; after it,
 * the producer disconnected, the context's topics deleted and the directories removed.
 */
export function useChangelogBroker(): ChangelogBroker {
  let ctx: KafkaTestContext | undefined;
  let producer: RecordProducer | undefined;
  const dirs: string[] = [];
  beforeEach(async () => {
    ctx = new KafkaTestContext();
    producer = await connectedProducer(ctx);
    await createChangelog(ctx);
  });
  afterEach(async () => {
    await producer!.disconnect();
    await ctx!.cleanup();
    for (const dir of dirs.splice(0)) await fs.rm(dir, { recursive: true, force: true });
  });
  return {
    get ctx() {
      return ctx!;
    },
    get producer() {
      return producer!;
    },
    stateDir: async () => {
      const dir = await tempStateDir();
      dirs.push(dir);
      return dir;
    },
  };
}

export function changelogOf(ctx: KafkaTestContext): string {
  return changelogTopicName(ctx.applicationId, STORE);
}

/** Creates the store's changelog as the runtime would, one partition per source partition. */
export async function createChangelog(ctx: KafkaTestContext): Promise<string> {
  const topics = new ChangelogTopics(new KafkajsClusterAdmin(await ctx.admin()));
  await topics.ensure([{ topic: changelogOf(ctx), kind: 'key-value', partitions: PARTITIONS }]);
  return changelogOf(ctx);
}

/** The high watermark of the task's changelog partition: its record (and marker) count. */
export async function changelogEndOffset(ctx: KafkaTestContext): Promise<number> {
  const offsets = await (await ctx.admin()).fetchTopicOffsets(changelogOf(ctx));
  return Number(offsets.find((o) => o.partition === TASK.partition)?.high);
}

export interface TaskOptions {
  readonly ctx: KafkaTestContext;
  readonly stateDir: string;
  readonly sender: BatchSender;
  readonly caching?: boolean;
  readonly exactlyOnce?: boolean;
  readonly logger?: RecordingLogger;
  /** The client whose reader by assignment restores the stores; default kafkajs (the runtime's). */
  readonly readers?: AssignedReaderClient;
}

/** One task's state as the runtime would run it: state dir, store, collector, state manager. */
export class TaskState {
  readonly stateDirectory: StateDirectory;
  readonly collector: KafkaRecordCollector;
  readonly logger: RecordingLogger;
  readonly store: MeteredKeyValueStore<string, string>;
  manager!: TaskStateManager;
  /** The stores' record time, a minute ago: within any changelog's retention. */
  timestamp = Date.now() - 60_000;
  private readonly registrations: StoreRegistration[] = [];

  constructor(private readonly options: TaskOptions) {
    this.stateDirectory = new StateDirectory({
      stateDir: options.stateDir,
      applicationId: options.ctx.applicationId,
    });
    this.collector = new KafkaRecordCollector({ sender: options.sender, lingerMs: 5 });
    this.logger = options.logger ?? new RecordingLogger();
    const builder = Stores.keyValueStoreBuilder(
      Stores.persistentKeyValueStore(STORE),
      Serdes.String(),
      Serdes.String(),
    );
    if (options.caching) builder.withCachingEnabled();
    this.store = builder.build();
  }

  /** Locks the state dir, opens the store and loads the checkpoint. */
  async open(): Promise<void> {
    await this.stateDirectory.lock();
    const context: StateStoreContext = {
      applicationId: this.options.ctx.applicationId,
      taskId: TASK,
      taskDir: await this.stateDirectory.taskDir(TASK),
      recordCollector: this.collector,
      cache: new RecordCache(),
      currentTimestamp: () => this.timestamp,
      register: (r) => this.registrations.push(r),
    };
    await this.store.init(context);
    this.manager = new TaskStateManager({
      taskId: TASK,
      stateDirectory: this.stateDirectory,
      registrations: this.registrations,
      recordCollector: this.collector,
      exactlyOnce: this.options.exactlyOnce ?? false,
      logger: this.logger,
    });
    await this.manager.initialize();
  }

  /**
   * Restores the task's stores by assignment (the engine's path) with the reader of the
   * `readers` client, or through a consumer of a throwaway group (`throughGroup`: the path for
   * a client that cannot read by assignment).
   */
  async restore(
    listener?: StateRestoreListener,
    {
      throughGroup = false,
      maxBytesPerPartition,
      readers = (factory) => factory,
    }: {
      throughGroup?: boolean;
      /** The restore's fetch size per partition (one record batch at least). */
      maxBytesPerPartition?: number;
      /** Wraps the client's reader factory (a test steps in between fetches). */
      readers?: (factory: AssignedPartitionReaderFactory) => AssignedPartitionReaderFactory;
    } = {},
  ): Promise<RestoreResult[]> {
    const restorer = new StateRestorer({
      kafka: this.options.ctx.kafka,
      readers: throughGroup
        ? undefined
        : readers(ASSIGNED_READER_FACTORIES[this.options.readers ?? 'kafkajs'](this.options.ctx)),
      admin: new KafkajsClusterAdmin(await this.options.ctx.admin()),
      groupIdPrefix: this.options.ctx.applicationId,
      logger: this.logger,
      maxBytesPerPartition,
    });
    return this.manager.restore(restorer, { listener });
  }

  /**
   * The commit sequence: flush caches and stores, await the changelog, maybe checkpoint (and
   * wait until that checkpoint is written).
   */
  async commit(): Promise<boolean> {
    await this.store.flush();
    await this.collector.flush();
    const started = this.manager.checkpointIfNeeded();
    await this.manager.whenCheckpointed();
    return started;
  }

  async closeClean(): Promise<void> {
    await this.store.flush();
    await this.collector.flush();
    await this.store.close();
    await this.manager.close(true);
    await this.stateDirectory.unlock();
  }

  /** A crash after the last commit: nothing more written, no checkpoint. */
  async closeDirty(): Promise<void> {
    this.collector.abandon();
    await this.store.close();
    await this.manager.close(false);
    await this.stateDirectory.unlock();
  }

  async contents(): Promise<[string, string][]> {
    return (await this.store.allAsync()).map((e) => [e.key, e.value]);
  }
}

/** A connected idempotent producer of the engine's port, over the test's kafkajs client. */
export async function connectedProducer(ctx: KafkaTestContext): Promise<KafkajsRecordProducer> {
  const producer = new KafkajsRecordProducer(ctx.kafka, undefined);
  await producer.connect();
  return producer;
}

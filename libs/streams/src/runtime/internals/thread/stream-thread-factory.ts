import type { ClusterAdmin } from '../../../client/cluster-admin';
import type { SubscriptionInfo } from '../../../cluster/internals/assignment-info';
import type { StreamsAssignorContext } from '../assignment/streams-partition-assignor';
import type { Topology } from '../../../processor/topology';
import type { RecordCache } from '../../../state/internals/record-cache';
import { chooseRocksDBEngineFor } from '../../../state/internals/rocksdb/rocksdb-engine-choice';
import { ActiveTaskManager } from '../active-tasks/active-task-manager';
import type { KafkaClientAdapters } from '../../../client/kafka-client-adapters';
import type { StateDirectory } from '../task-state/state-directory';
import type { StateLogger } from '../../../logging/logger';
import type { StateRestoreListener } from '../../state-restore-listener';
import { StateRestorer } from '../restore/state-restorer';
import { StandbyTaskManager } from '../standby/standby-task-manager';
import { StreamThread, type StreamThreadListener } from './stream-thread';
import { streamsGroupSpec } from '../assignment/streams-group-spec';
import type { ResolvedStreamsConfig } from '../../streams-config';
import type { ThreadMetrics } from '../metrics/thread-metrics';

/** What a stream thread is built from: the client's shared parts and its callbacks. */
export interface StreamThreadFactoryOptions {
  readonly topology: Topology;
  readonly config: ResolvedStreamsConfig;
  /** The chosen Kafka client's adapters. */
  readonly clients: KafkaClientAdapters;
  readonly admin: ClusterAdmin;
  readonly stateDirectory: StateDirectory;
  readonly cache: RecordCache;
  readonly logger: StateLogger;
  /** This client's process id (known once the state directory is locked). */
  processId(): string;
  /** The physical name of a topology topic. */
  resolveTopic(logical: string): string;
  /** The partition count of a physical topic (known once the internal topics are prepared). */
  partitionsFor(topic: string): number;
  restoreListener(): StateRestoreListener | undefined;
  /** This member's subscription (its tasks and their offset sums), read at every join. */
  subscription(): SubscriptionInfo;
  /** Changelog end-offset sums per task, for the leader's lag-aware assignment. */
  taskEndOffsetSums(): Promise<Record<string, number>>;
  readonly listener: StreamThreadListener;
  /** The new thread's sensors. */
  readonly threadMetrics?: ThreadMetrics;
}

/** A stream thread with its active and standby task managers. */
export interface StreamThreadParts {
  readonly thread: StreamThread;
  readonly tasks: ActiveTaskManager;
  readonly standbys: StandbyTaskManager;
}

/**
 * Builds one stream thread (not started): a restorer, the active and standby task managers,
 * and the assignor context of the client's topology and settings. A replaced thread gets a
 * new set (its predecessor's tasks were closed dirty).
 */
export function createStreamThread(options: StreamThreadFactoryOptions): StreamThreadParts {
  const { topology, config, clients, admin, stateDirectory, logger } = options;
  // Only kafkajs has a throwaway-group fallback (for when its reader cannot be made).
  const kafka = clients.throwawayGroupClient;
  // The process's RocksDB engine, chosen (and a fallback logged) before a store opens.
  chooseRocksDBEngineFor(topology.stores().values(), logger);
  // Restores and standbys read changelogs by assignment: no consumer group to join.
  const readers = clients.assignedReaders;
  const restorer = new StateRestorer({
    kafka,
    admin,
    readers,
    groupIdPrefix: `${config.applicationId}-restore`,
    logger,
  });
  const tasks = new ActiveTaskManager({
    topology,
    config,
    producers: clients.recordProducers,
    // Kafka Streams' exactly-once-v2 id: `<applicationId>-<processId>-<thread index>`. A
    // replacement thread takes the same id, fencing its predecessor's producer.
    threadTransactionalId: () => `${config.applicationId}-${options.processId()}-1`,
    admin,
    stateDirectory,
    restorer,
    cache: options.cache,
    resolveTopic: (t) => options.resolveTopic(t),
    partitionsFor: (topic) => options.partitionsFor(topic),
    logger,
    restoreListener: () => options.restoreListener(),
    threadMetrics: options.threadMetrics,
  });
  const standbys = new StandbyTaskManager({
    topology,
    config,
    kafka,
    admin,
    readers,
    stateDirectory,
    logger,
  });
  const assignor: StreamsAssignorContext = {
    subtopologies: () =>
      topology.subtopologies().map((s) => ({
        id: s.id,
        sourceTopics: s.sourceTopics.map((t) => options.resolveTopic(t)),
        stateful: s.stores.length > 0,
      })),
    subscription: () => options.subscription(),
    taskEndOffsetSums: () => options.taskEndOffsetSums(),
    numStandbyReplicas: config.numStandbyReplicas,
    acceptableRecoveryLag: config.acceptableRecoveryLag,
    maxWarmupReplicas: config.maxWarmupReplicas,
    probingRebalanceIntervalMs: config.probingRebalanceIntervalMs,
    log: (m) => logger.warn(m),
    info: (m) => logger.info(m),
  };
  const thread = new StreamThread({
    groupConsumers: clients.groupConsumers,
    config,
    sourceTopics: topology
      .subtopologies()
      .flatMap((s) => s.sourceTopics.map((t) => options.resolveTopic(t))),
    tasks,
    standbys,
    assignor,
    logger,
    listener: options.listener,
    threadMetrics: options.threadMetrics,
    streamsGroup:
      config.groupProtocol === 'streams'
        ? streamsGroupSpec({
            topology,
            applicationId: config.applicationId,
            resolveTopic: (t) => options.resolveTopic(t),
            partitionsFor: (t) => options.partitionsFor(t),
            taskEndOffsetSums: () => options.taskEndOffsetSums(),
          })
        : undefined,
  });
  return { thread, tasks, standbys };
}

/**
 * The engine: Kafka Streams' stateful core in TypeScript, framework-free. The client
 * (`KafkaStreams`), the DSL (`StreamsBuilder`) and the Processor API (`Topology`), state stores
 * on RocksDB or in memory with changelogs, serdes, interactive queries and typed errors.
 *
 * @module @nest-streams/streams
 */
// The public API of @nest-streams/streams, modelled on Kafka Streams' root package: the client,
// the DSL and the Processor API, stores, serdes, interactive queries and errors. Everything
// else is under `internals/` folders and may change in any release.

// The client and its settings
export { KafkaStreams } from './runtime/kafka-streams';
export { resetApplication, type ApplicationResetOptions } from './reset/reset-application';
export type {
  ApplicationResetReport,
  ApplicationResetRequest,
  ResetInputOffset,
} from './reset/application-reset';
export type { ResetPosition } from './reset/reset-position';
export {
  defaultUncaughtExceptionHandler,
  type KafkaStreamsOptions,
  type StateListener,
  type StreamsUncaughtExceptionHandler,
} from './runtime/kafka-streams-options';
export { KafkaStreamsState, StreamThreadExceptionResponse } from './runtime/kafka-streams-state';
export {
  resolveStreamsConfig,
  DEFAULT_KAFKA_CLIENT,
  KAFKA_CLIENT_NAMES,
  type GroupProtocol,
  type KafkaClientName,
  type RebalanceProtocol,
  type MetricsRecordingLevel,
  type ProcessingGuarantee,
  type ResolvedStreamsConfig,
  type StreamsConfig,
} from './runtime/streams-config';
export { streamsConfigFromProperties } from './runtime/streams-config-properties';
export { KAFKA_STREAMS_FACTORY } from './runtime/kafka-streams-hosting';
export type { ClientMetrics } from './runtime/client-metrics';
export {
  GROUP_TAGS,
  isRecordedAt,
  type StreamsMetric,
  type StreamsMetricDefinition,
  type StreamsMetricGroup,
} from './runtime/streams-metric';
export {
  DEAD_LETTER_REASONS,
  DROPPED_RECORD_REASONS,
  STREAMS_METRIC_DEFINITIONS,
} from './runtime/streams-metric-catalog';
export type { TaskMetadata } from './runtime/task-metadata';
export { consoleStreamsLogger, type StreamsLogLevel, type StreamsLogger } from './logging/logger';
export type { StateRestoreListener } from './runtime/state-restore-listener';
export {
  DEAD_LETTER_HEADERS,
  HandlerResponse,
  failOnProductionError,
  logAndContinue,
  logAndContinueOnProductionError,
  logAndFail,
  sendToDeadLetterTopic,
  retryOnProductionError,
  type DeserializationExceptionHandler,
  type FailedProduction,
  type FailedRecord,
  type ProductionExceptionHandler,
} from './runtime/exception-handlers';
export {
  failOnProcessingError,
  logAndContinueProcessing,
  logAndFailProcessing,
  type ProcessingErrorContext,
  type ProcessingExceptionHandler,
} from './runtime/processing-exception-handler';

// The DSL
export { StreamsBuilder } from './kstream/streams-builder';
export { KStream } from './kstream/kstream';
export { KTable, type KGroupedTable } from './kstream/ktable';
export { GlobalKTable } from './kstream/global-ktable';
export { KGroupedStream, type CogroupedKStream } from './kstream/kgrouped-stream';
export { TimeWindowedCogroupedKStream } from './kstream/time-windowed-cogrouped-kstream';
export { SessionWindowedCogroupedKStream } from './kstream/session-windowed-cogrouped-kstream';
export { TimeWindowedKStream } from './kstream/time-windowed-kstream';
export { SessionWindowedKStream } from './kstream/session-windowed-kstream';
export { BranchedKStream } from './kstream/branched-kstream';
export { Branched } from './kstream/branched';
export { Consumed } from './kstream/consumed';
export { Produced } from './kstream/produced';
export { Grouped } from './kstream/grouped';
export { Repartitioned } from './kstream/repartitioned';
export { Joined } from './kstream/joined';
export { StreamJoined } from './kstream/stream-joined';
export { TableJoined } from './kstream/table-joined';
export { BufferConfig, Suppressed, type BufferFullStrategy } from './kstream/suppressed';
export { Named } from './kstream/named';
export { Materialized, type StoreType } from './kstream/materialized';
export type { InferredSerde } from './kstream/serde-inference';
export type {
  Aggregator,
  ForeachAction,
  Initializer,
  KeyValueMapper,
  Merger,
  Predicate,
  Reducer,
  ValueJoiner,
  ValueMapper,
} from './kstream/functions';
export { TimeWindows } from './kstream/windows/time-windows';
export { SessionWindows } from './kstream/windows/session-windows';
export { SlidingWindows } from './kstream/windows/sliding-windows';
export { JoinWindows } from './kstream/windows/join-windows';
export { EmitStrategy, type EmitStrategyType } from './kstream/windows/emit-strategy';
export { TimeWindowedSerde } from './kstream/windows/time-windowed.serde';
export { SessionWindowedSerde } from './kstream/windows/session-windowed.serde';
export { Window } from './windowing/window';
export { TimeWindow } from './windowing/time-window';
export { SessionWindow } from './windowing/session-window';
export { Windowed } from './windowing/windowed';

// The Processor API
export { Topology, type SinkOptions, type SourceOptions } from './processor/topology';
export type { Processor, ProcessorSupplier } from './processor/processor';
export type {
  FixedKeyProcessor,
  FixedKeyProcessorContext,
  FixedKeyProcessorSupplier,
} from './processor/fixed-key-processor';
export { FixedKeyRecord } from './processor/fixed-key-record';
export type {
  DroppedRecordReason,
  ProcessorContext,
  RecordMetadata,
} from './processor/processor-context';
export { PunctuationType, type Cancellable, type Punctuator } from './processor/punctuation';
export { Record, type Headers } from './processor/record';
export { TaskId } from './processor/task-id';
export type { TopicPartition } from './processor/topic-partition';
export type { StreamPartitioner } from './processor/stream-partitioner';
export {
  recordTimestampExtractor,
  type ConsumedRecordInfo,
  type TimestampExtractor,
} from './processor/timestamp-extractor';
export { DefaultStreamPartitioner } from './cluster/default-stream-partitioner';

// State stores
export { Stores, type PersistentStoreOptions } from './state/stores';
export type { StateStore } from './processor/state-store';
export type {
  ChangelogRecord,
  StateStoreContext,
  StoreRegistration,
} from './processor/state-store-context';
export type { StoreBuilder } from './processor/store-builder';
export type {
  KeyValue,
  KeyValueIterator,
  KeyValueStore,
  ReadOnlyKeyValueStore,
} from './state/key-value-store';
export type { ReadOnlyWindowStore, WindowStore, WindowStoreIterator } from './state/window-store';
export type { ReadOnlySessionStore, SessionEntries, SessionStore } from './state/session-store';
export {
  valueAndTimestamp,
  type ReadOnlyTimestampedKeyValueStore,
  type TimestampedKeyValueStore,
  type ValueAndTimestamp,
} from './state/value-and-timestamp';
export type {
  BytesStoreLocation,
  KeyValueBytesStoreSupplier,
} from './state/key-value-bytes-store-supplier';
export type { WindowBytesStoreSupplier } from './state/window-bytes-store-supplier';
export type { SessionBytesStoreSupplier } from './state/session-bytes-store-supplier';
export type {
  BytesStore,
  BytesStoreCapabilities,
  BytesWrite,
  KeyValueBytes,
} from './state/bytes-store';
export type { RocksDBConfigSetter } from './state/rocksdb-config-setter';
export {
  BoundedMemoryRocksDBConfig,
  type BoundedMemoryRocksDBConfigOptions,
} from './state/bounded-memory-rocksdb-config';
// The default engine's shared objects, for config setters of your own (see RocksDBOptions).
export {
  Cache as RocksDBCache,
  WriteBufferManager as RocksDBWriteBufferManager,
  type CacheOptions as RocksDBCacheOptions,
} from '@nest-streams/rocksdb';
export {
  KAFKA_STREAMS_ROCKSDB_DEFAULTS,
  RocksDBOptions,
  type RocksDBCompactionStyle,
  type RocksDBCompression,
  type RocksDBOptionValues,
} from './state/rocksdb-options';
export type { RocksDBStoreMetrics } from './state/rocksdb-store-metrics';
export type {
  LocalStoreMetrics,
  OperationMetricsSnapshot,
  StoreCacheMetricsSnapshot,
  StoreMetricsSnapshot,
  StoreOperation,
} from './state/store-metrics-snapshot';

// Serdes
export type { Serde } from './serde/serde';
export { Serdes } from './serde/serdes';
export { StringSerde } from './serde/string.serde';
export { JsonSerde, type JsonSerdeOptions } from './serde/json.serde';
export { LongSerde } from './serde/long.serde';
export { LongBigIntSerde } from './serde/long-bigint.serde';
export { IntegerSerde } from './serde/integer.serde';
export { DoubleSerde } from './serde/double.serde';
export { BytesSerde } from './serde/bytes.serde';
export { VoidSerde } from './serde/void.serde';

// Interactive queries
export { StoreQueryParameters } from './query/store-query-parameters';
export type { ServedCopy, ServedListener } from './query/served-copy';
export { QueryableStoreTypes, type QueryableStoreType } from './query/queryable-store-type';
export { KeyQueryMetadata, type KeyPartitioning } from './query/key-query-metadata';
export type { LagInfo, StreamsMetadata } from './query/streams-metadata';
export { HostInfo } from './cluster/host-info';
export {
  FailureReason,
  StateQueryRequest,
  type QueryResult,
  type StateQueryRequestBuilder,
  type StateQueryResult,
} from './query/state-query';
export {
  KeyQuery,
  RangeQuery,
  WindowKeyQuery,
  WindowRangeQuery,
  SessionKeyQuery,
  type StoreQuery,
} from './query/queries';
export { PositionBound, mergePositions, type Position } from './query/position';

// Errors
export { StreamsError } from './errors/streams.error';
export {
  InvalidStateStoreError,
  InvalidStateStorePartitionError,
  StateStoreMigratedError,
  StateStoreNotAvailableError,
  StreamsNotStartedError,
} from './errors/invalid-state-store.error';
export { UnknownStateStoreError } from './errors/unknown-state-store.error';
export { StreamsConfigError } from './errors/streams-config.error';
export { TopologyError } from './errors/topology.error';
export { MissingSourceTopicError } from './errors/missing-source-topic.error';
export { TopicsNotCopartitionedError } from './errors/topics-not-copartitioned.error';
export { StaleTopologyError } from './errors/stale-topology.error';
export { IncorrectlyPartitionedTopicsError } from './errors/incorrectly-partitioned-topics.error';
export { MissingInternalTopicsError } from './errors/missing-internal-topics.error';
export { StreamsGroupRejectedError } from './errors/streams-group-rejected.error';
export { ChangelogTopicMismatchError } from './errors/changelog-topic-mismatch.error';
export { ChangelogRestoreError } from './errors/changelog-restore.error';
export { CorruptRecordBatchError } from './errors/corrupt-record-batch.error';
export { KafkaAuthenticationError } from './errors/kafka-authentication.error';
export { StateDirectoryLockedError } from './errors/state-directory-locked.error';
export { BrokersUnreachableError } from './errors/brokers-unreachable.error';
export { ClusterFaultTimeoutError } from './errors/cluster-fault-timeout.error';
export { BrokerAuthenticationError } from './errors/broker-authentication.error';
export { StreamsProcessingError } from './errors/streams-processing.error';
export { RecordCollectorSendError } from './errors/record-collector-send.error';
export { StreamsRunningError } from './errors/streams-running.error';
export { ApplicationActiveError } from './errors/application-active.error';
export { UnsupportedGroupTypeError } from './errors/unsupported-group-type.error';
export { ProcessorStateError } from './errors/processor-state.error';
export { StoreClosedError } from './errors/store-closed.error';
export { SyncReadUnavailableError } from './errors/sync-read-unavailable.error';
export { UnsupportedStoreOperationError } from './errors/unsupported-store-operation.error';
export { RocksDBConfigError } from './errors/rocksdb-config.error';
export { RocksDBMemoryBudgetError } from './errors/rocksdb-memory-budget.error';
export { RocksDBBindingConflictError } from './errors/rocksdb-binding-conflict.error';
export { KafkajsUnsupportedError } from './errors/kafkajs-unsupported.error';
export { InvalidWindowError } from './errors/invalid-window.error';
export { InvalidWindowedKeyError } from './errors/invalid-windowed-key.error';
export { SerializationError } from './serde/serialization.error';

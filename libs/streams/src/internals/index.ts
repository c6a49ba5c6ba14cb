// `@nest-streams/streams/internals`: the engine parts that @nest-streams/testing (of the same
// version) drives directly, as Kafka Streams' TopologyTestDriver drives its processor
// internals. Not a public API: applications import `@nest-streams/streams`; this subpath may
// change in any release.
export { StreamTask } from '../runtime/internals/task/stream-task';
export { RecordCache } from '../state/internals/record-cache';
export { InMemoryRecordCollector } from '../processor/internals/in-memory-record-collector';
export { resolveStreamsConfig } from '../runtime/streams-config';
export {
  commitPhase,
  setCommitPhaseHook,
  type CommitPhase,
} from '../runtime/internals/commit/commit-phases';
export { LocalStoreProvider, type LocalStore } from '../query/internals/local-store-provider';
export { executeStateQuery, type QueryableCopy } from '../query/internals/state-query-executor';
export { executeGlobalStateQuery } from '../query/internals/global-state-query';
export {
  isTimestamped,
  unwrapKeyValueStore,
  unwrapWindowStore,
} from '../query/internals/timestamped-unwrapping';
export { InternalConfig } from '../processor/internals/internal-config';
export { globalProcessorContext } from '../processor/internals/global-processor-context';
export {
  decideGlobalDeserializationError,
  decideGlobalProcessingError,
} from '../runtime/internals/global/global-record-errors';

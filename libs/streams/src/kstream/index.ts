export { StreamsBuilder } from './streams-builder';
export { KStream } from './kstream';
export { KTable } from './ktable';
export { KGroupedStream } from './kgrouped-stream';
export { TimeWindowedKStream } from './time-windowed-kstream';
export { SessionWindowedKStream } from './session-windowed-kstream';
export { BranchedKStream } from './branched-kstream';
export { Branched } from './branched';
export { Consumed } from './consumed';
export { Produced } from './produced';
export { Grouped } from './grouped';
export { Repartitioned } from './repartitioned';
export { Joined } from './joined';
export { Named } from './named';
export { Materialized, type StoreType } from './materialized';
export type { InferredSerde } from './serde-inference';
export type {
  Aggregator,
  ForeachAction,
  Initializer,
  KeyValue,
  KeyValueMapper,
  Merger,
  Predicate,
  Reducer,
  ValueJoiner,
  ValueMapper,
} from './functions';
export * from './windows';

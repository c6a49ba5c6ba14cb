import type { Serde } from '../../serde/serde';
import type { StateStore } from '../state-store';
import type { StoreBuilder } from '../store-builder';
import type { ProcessorSupplier } from '../processor';
import type { StreamPartitioner } from '../stream-partitioner';
import type { TimestampExtractor } from '../timestamp-extractor';

/**
 * What the topology keeps per state store: Kafka Streams' `StoreBuilder`. Window and session
 * store builders also say so (`changelogKind`) and give their retention, which decide the
 * changelog's cleanup policy and `retention.ms`; key-value builders may leave both unset.
 */
export type TopologyStoreBuilder<S extends StateStore = StateStore> = StoreBuilder<S> & {
  readonly changelogKind?: 'key-value' | 'window' | 'session';
  readonly retentionMs?: number;
};

export interface SourceNodeDef {
  readonly kind: 'source';
  readonly name: string;
  readonly topics: readonly string[];
  readonly keySerde?: Serde<unknown>;
  readonly valueSerde?: Serde<unknown>;
  readonly timestampExtractor?: TimestampExtractor;
}

export interface ProcessorNodeDef {
  readonly kind: 'processor';
  readonly name: string;
  readonly supplier: ProcessorSupplier<unknown, unknown, unknown, unknown>;
  readonly parents: readonly string[];
  readonly stores: Set<string>;
}

export interface SinkNodeDef {
  readonly kind: 'sink';
  readonly name: string;
  readonly topic: string;
  readonly keySerde?: Serde<unknown>;
  readonly valueSerde?: Serde<unknown>;
  readonly partitioner?: StreamPartitioner<unknown, unknown>;
  readonly parents: readonly string[];
}

export type NodeDef = SourceNodeDef | ProcessorNodeDef | SinkNodeDef;

/** An internal topic the application owns, named `<applicationId>-<name>` at run time. */
export interface InternalTopicDef {
  readonly name: string;
  /** Fixed partition count, or undefined to copy the upstream sub-topology's. */
  readonly numPartitions?: number;
  readonly kind: 'repartition';
}

/**
 * A global store (Kafka Streams' `addGlobalStore`, `globalTable`): every instance keeps a full
 * copy, filled from all partitions of `topic` by the processor `processorName` fed by the
 * source `sourceName` (the topic is its changelog: the store logs nothing). Processors of every
 * task read it; it forms no sub-topology and generates no task.
 */
export interface GlobalStoreDef {
  readonly storeName: string;
  readonly builder: TopologyStoreBuilder;
  readonly topic: string;
  readonly sourceName: string;
  readonly processorName: string;
}

/** One connected part of a topology: its own tasks, one per input partition. */
export interface Subtopology {
  readonly id: number;
  readonly nodes: readonly string[];
  readonly sourceTopics: readonly string[];
  readonly sinkTopics: readonly string[];
  readonly stores: readonly string[];
}

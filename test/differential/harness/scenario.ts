import type { StreamsBuilder } from '@nest-streams/streams';

/** How an input topic's records look: keys `k0`..`k{keys-1}`, values numbers or words (text). */
export interface InputTopicSpec {
  readonly topic: string;
  /** How many distinct keys. */
  readonly keys: number;
  /** `number`: decimal integers 0..99 as text; `word`: short lowercase words. */
  readonly values: 'number' | 'word';
  /** Share of records with a `null` value (tombstones on a table's topic). Default 0. */
  readonly tombstones?: number;
  /** Share of records with a `null` key. Default 0. */
  readonly nullKeys?: number;
  /** Weight of this topic among the scenario's input topics. Default 1. */
  readonly weight?: number;
}

/** What the seeded generator writes for a scenario. */
export interface InputSpec {
  readonly topics: readonly InputTopicSpec[];
  /** Largest step of event time between two in-order records (ms). Default 20. */
  readonly timeStep?: number;
  /** Share of out-of-order records (up to `disorderMs` behind the newest). Default 0.2. */
  readonly outOfOrder?: number;
  /** How far behind an out-of-order record goes at most (ms). Default 150. */
  readonly disorderMs?: number;
  /** Share of late records (up to `lateMs` behind the newest). Default 0.05. */
  readonly late?: number;
  /** How far behind a late record goes at most (ms). Default 1000. */
  readonly lateMs?: number;
  /** Share of records after which event time jumps ahead by `jumpMs` (closes windows). Default 0.01. */
  readonly jumps?: number;
  /** Default 120000: beyond the window stores' one-minute segments. */
  readonly jumpMs?: number;
  /** Share of steps that advance the wall clock by up to `wallClockMs` instead. Default 0. */
  readonly wallClock?: number;
  /** Default 200. */
  readonly wallClockMs?: number;
}

/** An output topic to compare, and how to show its bytes in a difference report. */
export interface OutputSpec {
  readonly topic: string;
  /** `string`; `time-windowed:<size>` and `session-windowed` keys over a string key. */
  readonly key: 'string' | `time-windowed:${number}` | 'session-windowed';
  readonly value: 'string' | 'long';
}

/** A store whose final contents are compared. */
export interface StoreSpec {
  readonly name: string;
  readonly kind: 'kv' | 'window' | 'session';
  /** Session stores are read key by key: the keys to read. */
  readonly keys?: readonly string[];
}

/**
 * One scenario of the differential harness: a topology built with our DSL as a user writes it,
 * whose twin (same name) in test/differential/java builds the same topology with Kafka
 * Streams' DSL; the inputs to generate; the output topics and stores to compare.
 */
export interface DifferentialScenario {
  readonly name: string;
  /** The operators it covers, for the coverage table. */
  readonly operators: string;
  readonly input: InputSpec;
  readonly outputs: readonly OutputSpec[];
  readonly stores: readonly StoreSpec[];
  /** Record caches on, off, or one case of each per seed. Default `both`. */
  readonly caching?: 'on' | 'off' | 'both';
  /** Builds the topology on `builder` (default serdes: strings). */
  build(builder: StreamsBuilder): void;
}

/** `k0`..`k{n-1}`: the keys of an input topic with `n` keys. */
export function keysOf(n: number, prefix = 'k'): string[] {
  return Array.from({ length: n }, (_, i) => `${prefix}${i}`);
}

import type { KafkaClientName } from '@nest-streams/streams';
import type { BenchResult } from './bench-report';

/** Which side of the comparison a row is on. */
export type SystemRole =
  'ours' | 'java' | 'consume-ceiling' | 'pipe-ceiling' | 'store-ceiling' | 'other-peer';

/**
 * One line of a scenario's table: a measured result, or why there is none. A `failure` (a
 * crash or a wrong answer) fails the run; a `note` alone (e.g. a peer that cannot run here)
 * does not.
 */
export interface SystemRow {
  readonly system: string;
  readonly role: SystemRole;
  /**
   * Rows with the same key are compared with each other (the Java row of a key is the
   * reference for that key): the processing guarantee, or the restore phase.
   */
  readonly compareKey: string;
  /**
   * The Node Kafka client the row ran on (our engine's `kafkaClient`, or a ceiling's client);
   * undefined for systems without one (Java, RocksDB, nodefluent's node-rdkafka).
   */
  readonly client?: KafkaClientName;
  readonly result?: BenchResult;
  readonly failure?: string;
  readonly note?: string;
  /** The machine's 1-minute load average when the system's process started and ended. */
  readonly loadAverage?: readonly [number, number];
}

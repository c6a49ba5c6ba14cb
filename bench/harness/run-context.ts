import type { BenchOptions } from './bench-options';
import type { BenchTopics } from './bench-topics';
import type { JavaPeerCommand } from './java-peer';

/** What every scenario gets: options, the broker, the run's names and scratch folder. */
export interface RunContext {
  readonly options: BenchOptions;
  /** Bootstrap servers, comma-separated. */
  readonly brokers: string;
  readonly topics: BenchTopics;
  /** Prefix of every topic, group and application id of the run (deleted at the end). */
  readonly runPrefix: string;
  /** Scratch folder of the run (events, truth, dumps, state dirs); deleted at the end. */
  readonly workDir: string;
  readonly log: (line: string) => void;
  /** The Java peer, built on first use (cached across runs). */
  javaPeer(): JavaPeerCommand;
}

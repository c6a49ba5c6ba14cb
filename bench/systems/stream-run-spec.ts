import type { KafkaClientName, ProcessingGuarantee } from '@nest-streams/streams';
import type { RunContext } from '../harness/run-context';
import type { Truth } from '../harness/truth';

/** One run of a stream processor (ours or the Java peer) over the run's input topic. */
export interface StreamRunSpec {
  /** `aggregate`, `windowed`, or `restore` (the aggregate topology, timed to RUNNING). */
  readonly mode: 'aggregate' | 'windowed' | 'restore';
  readonly inputTopic: string;
  readonly guarantee: ProcessingGuarantee;
  /** Also the consumer group and the prefix of its changelog topics. */
  readonly applicationId: string;
  readonly stateDir: string;
  /** The expected final store, and where it is written for the Java peer's self-check. */
  readonly truth: Truth;
  readonly truthFile: string;
  /** Columns of the truth's key: 1 (`user`) or 2 (`user\twindowStart`). */
  readonly keyColumns: 1 | 2;
  /** The row's label and comparison key. */
  readonly system: string;
  readonly compareKey: string;
  /** Records the run must report: input records, or changelog records restored. */
  readonly expectedRecords: number | undefined;
  /** Name of the dump file in the work dir. */
  readonly dumpName: string;
  /**
   * Ours: the engine's Kafka client (`streams.kafkaClient`); kafkajs when undefined (the
   * workers' choice without `--kafka-client`). The Java peer ignores it.
   */
  readonly client?: KafkaClientName;
  /** Runs the worker of another checkout (`--baseline`), as an `other-peer` row. */
  readonly baselineRoot?: string;
  /**
   * `at-least`: the store may count events twice (at-least-once after a crash): a count and
   * sum at least the truth's match. Default `exact`.
   */
  readonly check?: 'exact' | 'at-least';
  /**
   * Ours and the baseline: processes of the application, started together (default 1). The Java
   * peer ignores it.
   */
  readonly instances?: number;
  /** Polled while the worker runs: once true, the worker is SIGKILLed (`crash-restore`). */
  readonly killWhen?: () => Promise<boolean>;
}

/** The commit interval of a guarantee under the run's options. */
export function commitIntervalFor(
  guarantee: ProcessingGuarantee,
  options: { commitIntervalMs: number; eosCommitIntervalMs: number },
): number {
  return guarantee === 'exactly_once_v2' ? options.eosCommitIntervalMs : options.commitIntervalMs;
}

/**
 * The options every stream worker of a run takes (ours and the Java peer), with the state
 * directory and dump file of the one process they start.
 */
export function streamWorkerArgs(
  ctx: Pick<RunContext, 'brokers' | 'options'>,
  spec: StreamRunSpec,
  files: { stateDir: string; dumpFile: string },
): string[] {
  const { options } = ctx;
  return [
    '--mode',
    spec.mode,
    '--bootstrap-servers',
    ctx.brokers,
    '--input-topic',
    spec.inputTopic,
    '--application-id',
    spec.applicationId,
    '--state-dir',
    files.stateDir,
    '--guarantee',
    spec.guarantee,
    '--commit-interval-ms',
    String(commitIntervalFor(spec.guarantee, options)),
    '--cache-max-bytes',
    String(options.cacheMaxBytes),
    '--dump-file',
    files.dumpFile,
    '--timeout-ms',
    String(options.timeoutMs),
  ];
}

import { SampledStat } from './sampled-stat';

/** Which of a node's metrics are recorded at the client's `metrics.recording.level`. */
export interface NodeMetricsChoice {
  /** `process-*` (calls, and their latency): DEBUG and above, as in Kafka Streams. */
  readonly process: boolean;
  /** `record-e2e-latency-*`: source and terminal nodes, at every level (INFO). */
  readonly endToEnd: boolean;
  /** A terminal node (no children): its end-to-end latency is taken when it is done. */
  readonly terminal?: boolean;
}

/**
 * The sensors of one processor node of one task (Kafka Streams' `stream-processor-node-metrics`):
 * `process` records each call's latency in ns (DEBUG), `endToEnd` each record's end-to-end
 * latency in ms (INFO; source and terminal nodes only): the wall-clock time the task read for
 * its batch minus the record's timestamp, when the record enters a source node, and when a
 * terminal node (a sink, or a processor without children) finished with it.
 *
 * A node whose metrics are all off has none: `processorNodeMetrics` returns `undefined`, and
 * the task's hot path then reads no clock for it.
 */
export class ProcessorNodeMetrics {
  readonly process: SampledStat | undefined;
  readonly endToEnd: SampledStat | undefined;
  /** The end-to-end latency taken when the node is done (a terminal node's), else none. */
  private readonly endToEndOnExit: SampledStat | undefined;

  private constructor(choice: NodeMetricsChoice, now: number) {
    this.process = choice.process ? new SampledStat(now) : undefined;
    this.endToEnd = choice.endToEnd ? new SampledStat(now) : undefined;
    this.endToEndOnExit = choice.terminal ? this.endToEnd : undefined;
  }

  /** The sensors `choice` asks for, or `undefined` when it asks for none. */
  static of(choice: NodeMetricsChoice, now: number): ProcessorNodeMetrics | undefined {
    return choice.process || choice.endToEnd ? new ProcessorNodeMetrics(choice, now) : undefined;
  }

  /**
   * The sensors of a node at the client's level: the end-to-end latency of a source (on entry)
   * or of a terminal node without children (on exit), and its calls when `timed` (DEBUG).
   */
  static forNode(
    source: boolean,
    childless: boolean,
    timed: boolean,
    now: number,
  ): ProcessorNodeMetrics | undefined {
    const terminal = !source && childless;
    return ProcessorNodeMetrics.of({ process: timed, endToEnd: source || terminal, terminal }, now);
  }

  /** A timing mark for {@link processed}: `performance.now()` when calls are timed, else 0. */
  start(): number {
    return this.process === undefined ? 0 : performance.now();
  }

  /** A record entered this (source) node, read at `clockMs`. */
  entered(timestamp: number, clockMs: number): void {
    this.endToEnd?.record(clockMs - timestamp);
  }

  /**
   * This node finished with a record (a terminal node's end-to-end latency is taken then),
   * `started` being the mark {@link start} returned before the call.
   */
  processed(started: number, timestamp: number, clockMs: number): void {
    if (this.process !== undefined) this.process.record((performance.now() - started) * 1e6);
    if (this.endToEndOnExit !== undefined) this.endToEndOnExit.record(clockMs - timestamp);
  }
}

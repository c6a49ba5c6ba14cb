import type { MetricsReport } from '../metrics/metrics-report';
import type { TaskRestoreMetrics } from '../metrics/task-restore-metrics';
import type { StreamTask } from './stream-task';
import type { TaskMetrics } from './task-metrics';

const TASK = 'stream-task-metrics';
const NODE = 'stream-processor-node-metrics';

/** The task's dropped records by the `reason` tag of `dropped-records`. */
function droppedByReason(m: TaskMetrics): [string, number][] {
  return [
    ['deserialization_error', m.skippedDeserialization],
    ['invalid_timestamp', m.skippedInvalidTimestamp],
    ['processing_error', m.skippedProcessing],
    ['production_error', m.skippedProduction],
    ['null_key', m.droppedBy['null-key']],
    ['null_value', m.droppedBy['null-value']],
    ['late_record', m.droppedBy.late],
    ['no_join_partner', m.droppedBy['no-join-partner']],
    ['other', m.droppedBy.other],
  ];
}

/**
 * Adds an active task's metrics to `report` (Kafka Streams' `stream-task-metrics` and the
 * `stream-processor-node-metrics` of its nodes): dropped records and dead letters by reason,
 * end-to-end latencies (INFO); processed records, records processed with an input partition
 * given up on (`enforced-processing`), processing latency per record, lateness,
 * each node's calls and their latency (DEBUG); and its restore's progress when `restore` is
 * given (records restored at DEBUG, offsets left at INFO).
 */
export function reportTaskMetrics(
  report: MetricsReport,
  task: StreamTask,
  restore?: TaskRestoreMetrics,
): void {
  const tags = { 'task-id': task.id.toString() };
  const m = task.metrics;
  for (const [reason, n] of droppedByReason(m)) {
    report.total(TASK, 'dropped-records', { ...tags, reason }, n);
  }
  const letters = m.deadLetteredBy;
  for (const [kind, n] of Object.entries(letters) as [keyof typeof letters, number][]) {
    report.add(TASK, 'dead-letter-records-total', { ...tags, reason: `${kind}_error` }, n);
  }
  report.total(TASK, 'process', tags, m.processed, 'DEBUG');
  report.total(TASK, 'enforced-processing', tags, m.enforcedProcessing, 'DEBUG');
  const { now } = report;
  if (m.processLatency) {
    report.sampled(
      TASK,
      'process-latency',
      tags,
      m.processLatency.read(now),
      ['avg', 'max'],
      'DEBUG',
    );
  }
  if (m.lateness) {
    report.sampled(TASK, 'record-lateness', tags, m.lateness.read(now), ['avg', 'max'], 'DEBUG');
  }
  if (restore) {
    report.total(TASK, 'restore', tags, restore.restored, 'DEBUG');
    report.add(TASK, 'restore-remaining-records-total', tags, restore.remaining);
  }
  for (const [name, node] of task.processorNodes()) {
    const sensors = node.metrics;
    if (!sensors) continue;
    const nodeTags = { ...tags, 'processor-node-id': name };
    if (sensors.process) {
      const figures = sensors.process.read(now);
      report.sampled(NODE, 'process', nodeTags, figures, ['rate', 'total'], 'DEBUG');
      report.sampled(NODE, 'process-latency', nodeTags, figures, ['avg', 'max'], 'DEBUG');
    }
    if (sensors.endToEnd) {
      const figures = sensors.endToEnd.read(now);
      report.sampled(NODE, 'record-e2e-latency', nodeTags, figures, ['avg', 'min', 'max'], 'INFO');
    }
  }
}

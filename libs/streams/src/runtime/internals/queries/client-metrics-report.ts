import type { LocalStoreMetrics } from '../../../state/store-metrics-snapshot';
import type { StreamsMetric } from '../../streams-metric';
import type { ActiveTaskEntry } from '../active-tasks/active-task-entry';
import type { MetricsReport } from '../metrics/metrics-report';
import type { ThreadMetrics } from '../metrics/thread-metrics';
import type { StandbyTask } from '../standby/standby-task';
import { reportTaskMetrics } from '../task/task-metrics-report';
import { reportStoreMetrics } from './store-metrics-report';

/** What a client's metrics are read from. */
export interface ClientMetricsParts {
  readonly clientId: string;
  /** Stream threads running now (0 or 1), and failed since the client started. */
  readonly aliveThreads: number;
  readonly failedThreads: number;
  /** The current stream thread's sensors, once it started. */
  readonly thread: ThreadMetrics | undefined;
  readonly activeTasks: readonly ActiveTaskEntry[];
  readonly standbyTasks: readonly StandbyTask[];
  readonly stores: readonly LocalStoreMetrics[];
}

const THREAD = 'stream-thread-metrics';

/**
 * Every metric of a client at the report's level (`KafkaStreams.allMetrics()`): the client's,
 * its stream thread's, each active task's (and its processor nodes' and stores'), and each
 * standby task's updates.
 */
export function clientMetricsReport(
  report: MetricsReport,
  parts: ClientMetricsParts,
): StreamsMetric[] {
  const clientTags = { 'client-id': parts.clientId };
  report.add('stream-metrics', 'alive-stream-threads', clientTags, parts.aliveThreads);
  report.add('stream-metrics', 'failed-stream-threads', clientTags, parts.failedThreads);
  const thread = parts.thread;
  if (thread) {
    const tags = { 'thread-id': thread.threadId };
    const { now } = report;
    const commit = thread.commit.read(now);
    report.sampled(THREAD, 'commit', tags, commit, ['rate', 'total'], 'INFO');
    report.sampled(THREAD, 'commit-latency', tags, commit, ['avg', 'max'], 'INFO');
    report.total(THREAD, 'process', tags, thread.processed);
    const process = thread.processLatency.read(now);
    report.sampled(THREAD, 'process-latency', tags, process, ['avg', 'max'], 'INFO');
    const punctuate = thread.punctuate.read(now);
    report.sampled(THREAD, 'punctuate', tags, punctuate, ['rate', 'total'], 'INFO');
    report.sampled(THREAD, 'punctuate-latency', tags, punctuate, ['avg', 'max'], 'INFO');
    report.total(THREAD, 'poll', tags, thread.polls);
    report.total(THREAD, 'task-created', tags, thread.tasksCreated);
    report.total(THREAD, 'task-closed', tags, thread.tasksClosed);
    report.add(THREAD, 'thread-start-time', tags, thread.startTime);
  }
  for (const entry of parts.activeTasks) {
    reportTaskMetrics(report, entry.task, entry.restoreMetrics);
  }
  for (const standby of parts.standbyTasks) {
    const tags = { 'task-id': standby.id.toString() };
    report.total('stream-task-metrics', 'update', tags, standby.updated, 'DEBUG');
  }
  reportStoreMetrics(report, parts.stores);
  return report.metrics;
}

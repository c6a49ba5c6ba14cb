import type { StreamTask } from '@nest-streams/streams/internals';

/** `TopologyTestDriver.metrics()`: the metrics of the driver's tasks, summed. */
export interface DriverMetrics {
  processed: number;
  produced: number;
  skippedDeserialization: number;
  skippedInvalidTimestamp: number;
  deadLettered: number;
  droppedRecords: number;
}

/** @internal Sums the metrics of `tasks`: processed, skipped, dead-lettered, dropped by the DSL. */
export function sumTaskMetrics(tasks: readonly StreamTask[]): DriverMetrics {
  const sum: DriverMetrics = {
    processed: 0,
    produced: 0,
    skippedDeserialization: 0,
    skippedInvalidTimestamp: 0,
    deadLettered: 0,
    droppedRecords: 0,
  };
  for (const task of tasks) {
    for (const key of Object.keys(sum) as (keyof DriverMetrics)[]) sum[key] += task.metrics[key];
  }
  return sum;
}

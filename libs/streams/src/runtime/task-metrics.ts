/** Counters of one task, read by the runtime's metrics and the test driver. */
export class TaskMetrics {
  /** Records that ran through the topology. */
  processed = 0;
  /** Records written by sinks. */
  produced = 0;
  /** Records skipped because the key or value did not deserialize. */
  skippedDeserialization = 0;
  /** Records skipped because their timestamp was negative or not a number. */
  skippedInvalidTimestamp = 0;
  /** Output records dropped because they could not be serialized (production handler: continue). */
  skippedProduction = 0;
  /** Skipped records written to the dead-letter topic. */
  deadLettered = 0;
}

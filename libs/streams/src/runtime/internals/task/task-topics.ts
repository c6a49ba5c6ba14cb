/**
 * How a task finds its topics, as the client prepared them: the physical name of a topology
 * topic, and the partition count of an output topic (the client hands both from its start to
 * each thread, task manager, task and sink writer).
 */
export interface TaskTopics {
  /** Logical topic name (as in the topology) to the physical one (internal topics prefixed). */
  readonly resolveTopic: (logical: string) => string;
  /** Partition count of an output topic (physical name). */
  readonly partitionsFor: (topic: string) => number;
}

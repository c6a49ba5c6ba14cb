/**
 * The id of a task: the sub-topology it runs and the input partition it owns, written
 * `<subtopologyId>_<partition>` (for example `0_3`) exactly as Kafka Streams names task
 * directories, logs them and reports them in metadata.
 */
export class TaskId {
  private readonly text: string;

  /**
   * @throws RangeError when either part is not a non-negative integer: the caller built the
   *   id from bad input; fix the caller (ids come from the topology and the assignment).
   */
  constructor(
    readonly subtopologyId: number,
    readonly partition: number,
  ) {
    if (!Number.isInteger(subtopologyId) || subtopologyId < 0) {
      throw new RangeError(`subtopologyId must be a non-negative integer, got ${subtopologyId}`);
    }
    if (!Number.isInteger(partition) || partition < 0) {
      throw new RangeError(`partition must be a non-negative integer, got ${partition}`);
    }
    this.text = `${subtopologyId}_${partition}`;
  }

  /**
   * Parses `<subtopologyId>_<partition>`.
   *
   * @throws RangeError when the text is not a task id (for example a foreign directory in the
   *   state dir): skip such entries rather than failing.
   */
  static parse(text: string): TaskId {
    const match = /^(\d+)_(\d+)$/.exec(text);
    if (!match)
      throw new RangeError(`not a task id: '${text}' (expected <subtopologyId>_<partition>)`);
    return new TaskId(Number(match[1]), Number(match[2]));
  }

  /** Like {@link TaskId.parse} but returns `undefined` for text that is not a task id. */
  static tryParse(text: string): TaskId | undefined {
    return /^\d+_\d+$/.test(text) ? TaskId.parse(text) : undefined;
  }

  equals(other: TaskId): boolean {
    return this.subtopologyId === other.subtopologyId && this.partition === other.partition;
  }

  /** Orders by sub-topology, then partition. */
  compareTo(other: TaskId): number {
    return this.subtopologyId - other.subtopologyId || this.partition - other.partition;
  }

  toString(): string {
    return this.text;
  }

  toJSON(): string {
    return this.text;
  }
}

import { StreamsError } from '../streams.error';

/**
 * A `.checkpoint` file could not be parsed (unknown version, bad count, malformed line).
 *
 * What to do: treat the checkpointed offsets as unknown: delete the file, log a warning, and
 * restore the task's stores from the beginning of their changelogs (the task state manager
 * does this itself). Never retry the read: the file will not fix itself.
 */
export class CorruptCheckpointError extends StreamsError.coded('CHECKPOINT_CORRUPT', false) {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`checkpoint file ${file} is corrupt: ${reason}`);
  }
}

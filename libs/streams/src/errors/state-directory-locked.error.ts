import { StreamsError } from './streams.error';

/**
 * The application's state directory is locked by another live holder: another process
 * (`holderPid` is its pid) or another instance in this same process.
 *
 * What to do: give each instance its own `state.dir` (or its own `application.id`), or stop
 * the holder first. Not retriable as such; a lock left by a dead process is taken over
 * automatically and never raises this error.
 */
export class StateDirectoryLockedError extends StreamsError.coded('STATE_DIR_LOCKED', false) {
  constructor(
    readonly directory: string,
    readonly holderPid: number,
    readonly sameProcess: boolean,
  ) {
    super(
      sameProcess
        ? `state directory ${directory} is already locked by another instance in this process (pid ${holderPid}); give each instance its own state.dir or application.id`
        : `state directory ${directory} is locked by process ${holderPid}; stop that process or use another state.dir`,
    );
  }
}

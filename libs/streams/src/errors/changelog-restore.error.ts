import { StreamsError } from './streams.error';

/**
 * Restoring a store from its changelog failed: the restore consumer crashed, the topic
 * disappeared, or applying a batch to the store failed.
 *
 * What to do: retry the restore (it resumes from the store's last checkpoint, or from the
 * beginning); if it keeps failing, check the broker and the changelog topic named in the
 * message. The store is not queryable until a restore completes.
 */
export class ChangelogRestoreError extends StreamsError.coded('CHANGELOG_RESTORE_FAILED', true) {
  constructor(
    readonly topic: string,
    readonly partition: number,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`restoring from ${topic}-${partition} failed: ${message}`, options);
  }
}

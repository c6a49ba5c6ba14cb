import { StreamsError } from './streams.error';

/**
 * An existing changelog topic does not match what its store needs: a different partition
 * count than the source topic, or a cleanup policy without `compact`. Raised at startup,
 * before any processing.
 *
 * What to do: the topic was created by hand or by a different topology. Delete the
 * changelog topic (its data is derived state and will be rebuilt from the input) or fix its
 * configuration to the expected value in the message, then start again. Not retriable.
 */
export class ChangelogTopicMismatchError extends StreamsError.coded(
  'CHANGELOG_TOPIC_MISMATCH',
  false,
) {
  constructor(
    readonly topic: string,
    readonly setting: 'partitions' | 'cleanup.policy',
    readonly expected: string | number,
    readonly actual: string | number,
  ) {
    super(
      setting === 'partitions'
        ? `changelog topic ${topic} has ${actual} partitions but ${expected} are required (one per source partition); delete the topic or recreate it with ${expected} partitions`
        : `changelog topic ${topic} has cleanup.policy=${actual} but ${expected} is required; alter the topic's cleanup.policy or delete it`,
    );
  }
}

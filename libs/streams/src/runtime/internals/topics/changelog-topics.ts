import { ChangelogTopicMismatchError } from '../../../errors/changelog-topic-mismatch.error';
import type { ClusterAdmin } from '../../../client/cluster-admin';
import { createTopicsAndWait, describeTopicConfigsSettled } from '../../../client/topic-admin';

/** Kafka Streams' `windowstore.changelog.additional.retention.ms` default: one day. */
export const DEFAULT_WINDOW_CHANGELOG_ADDITIONAL_RETENTION_MS = 86_400_000;

/** The kind of store a changelog backs; it decides the topic's cleanup policy. */
export type ChangelogStoreKind = 'key-value' | 'window' | 'session';

/** One changelog topic a topology needs. */
export interface ChangelogTopicSpec {
  /** `<applicationId>-<store>-changelog`. */
  readonly topic: string;
  readonly kind: ChangelogStoreKind;
  /** The source topics' partition count (one changelog partition per task). */
  readonly partitions: number;
  /** Window and session stores: the store's retention in ms (required for them). */
  readonly retentionMs?: number;
  /** Extra or overriding topic configs (`withLoggingEnabled(topicConfig)`). */
  readonly topicConfig?: Readonly<Record<string, string>>;
}

/** Options of {@link ChangelogTopics}. */
export interface ChangelogTopicsOptions {
  /** Replication factor of created topics; default -1 (the broker's `default.replication.factor`). */
  readonly replicationFactor?: number;
  /** Added to window and session retention for `retention.ms`; default one day. */
  readonly additionalRetentionMs?: number;
}

/** What {@link ChangelogTopics.ensure} did. */
export interface EnsuredChangelogTopics {
  readonly created: string[];
  readonly existing: string[];
}

/**
 * The configs Kafka Streams gives a changelog topic: key-value `cleanup.policy=compact`;
 * window and session `cleanup.policy=compact,delete` with `retention.ms` = store retention +
 * the additional retention; all `message.timestamp.type=CreateTime`. `topicConfig` entries
 * override these.
 *
 * @throws RangeError for a window or session spec without `retentionMs`.
 */
export function changelogTopicConfig(
  spec: ChangelogTopicSpec,
  additionalRetentionMs = DEFAULT_WINDOW_CHANGELOG_ADDITIONAL_RETENTION_MS,
): Record<string, string> {
  const config: Record<string, string> = { 'message.timestamp.type': 'CreateTime' };
  if (spec.kind === 'key-value') {
    config['cleanup.policy'] = 'compact';
  } else {
    if (
      spec.retentionMs === undefined ||
      !Number.isInteger(spec.retentionMs) ||
      spec.retentionMs < 0
    ) {
      throw new RangeError(
        `changelog ${spec.topic} of a ${spec.kind} store needs the store's retentionMs`,
      );
    }
    config['cleanup.policy'] = 'compact,delete';
    config['retention.ms'] = String(spec.retentionMs + additionalRetentionMs);
  }
  return { ...config, ...(spec.topicConfig ?? {}) };
}

/**
 * Creates a topology's changelog topics before any store uses them, with Kafka Streams'
 * configs and one partition per source partition, and checks the ones that already exist.
 */
export class ChangelogTopics {
  private readonly replicationFactor: number;
  private readonly additionalRetentionMs: number;

  constructor(
    private readonly admin: ClusterAdmin,
    options: ChangelogTopicsOptions = {},
  ) {
    this.replicationFactor = options.replicationFactor ?? -1;
    this.additionalRetentionMs =
      options.additionalRetentionMs ?? DEFAULT_WINDOW_CHANGELOG_ADDITIONAL_RETENTION_MS;
  }

  /**
   * Creates the missing topics and validates the existing ones.
   *
   * @throws ChangelogTopicMismatchError when an existing topic has another partition count
   *   or a cleanup policy other than the store needs: a startup error naming the topic and
   *   both values; delete or fix the topic, then start again.
   * @throws the admin client's errors when the broker cannot be reached or refuses
   *   (authorization): retry the startup later, or fix the ACLs.
   */
  async ensure(specs: readonly ChangelogTopicSpec[]): Promise<EnsuredChangelogTopics> {
    const unique = new Map(specs.map((spec) => [spec.topic, spec]));
    const listed = new Set(await this.admin.listTopics());
    const missing = [...unique.values()].filter((spec) => !listed.has(spec.topic));
    const created: string[] = [];
    if (missing.length > 0) {
      // Waits for the leaders itself: a KRaft broker's metadata cache lags the creation (seen
      // on a freshly started broker with several instances starting at once).
      await createTopicsAndWait(
        this.admin,
        missing.map((spec) => ({
          topic: spec.topic,
          partitions: spec.partitions,
          replicationFactor: this.replicationFactor,
          configs: changelogTopicConfig(spec, this.additionalRetentionMs),
        })),
      );
      // Created now, or by a concurrent instance meanwhile: validated below either way.
      created.push(...missing.map((spec) => spec.topic));
    }
    await this.validate([...unique.values()]);
    const createdSet = new Set(created);
    return {
      created,
      existing: [...unique.keys()].filter((topic) => !createdSet.has(topic)),
    };
  }

  /**
   * Checks partition counts and cleanup policies of existing topics.
   *
   * @throws ChangelogTopicMismatchError for the first topic that does not match.
   */
  async validate(specs: readonly ChangelogTopicSpec[]): Promise<void> {
    if (specs.length === 0) return;
    const metadata = await this.admin.fetchTopicMetadata(specs.map((s) => s.topic));
    const partitions = new Map(metadata.map((t) => [t.name, t.partitions.length]));
    for (const spec of specs) {
      const actual = partitions.get(spec.topic);
      if (actual !== undefined && actual !== spec.partitions) {
        throw new ChangelogTopicMismatchError(spec.topic, 'partitions', spec.partitions, actual);
      }
    }
    // A topic another instance just created may not have reached the broker asked yet.
    const described = await describeTopicConfigsSettled(
      this.admin,
      specs.map((spec) => spec.topic),
      ['cleanup.policy'],
    );
    const policies = new Map(described.map((r) => [r.topic, r.configs['cleanup.policy'] ?? '']));
    for (const spec of specs) {
      const expected = changelogTopicConfig(spec, this.additionalRetentionMs)['cleanup.policy'];
      const actual = policies.get(spec.topic);
      if (actual !== undefined && !samePolicy(expected, actual)) {
        throw new ChangelogTopicMismatchError(spec.topic, 'cleanup.policy', expected, actual);
      }
    }
  }
}

function samePolicy(a: string, b: string): boolean {
  const parse = (p: string): string =>
    p
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s.length > 0)
      .sort()
      .join(',');
  return parse(a) === parse(b);
}

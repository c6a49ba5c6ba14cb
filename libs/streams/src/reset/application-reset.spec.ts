import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClusterAdmin, CommittedOffset } from '../client/cluster-admin';
import type { OffsetResetAdmin, ResetAdmins } from '../client/offset-reset-admin';
import { ApplicationActiveError } from '../errors/application-active.error';
import { UnsupportedGroupTypeError } from '../errors/unsupported-group-type.error';
import { runApplicationReset } from './application-reset';

/** A cluster of two input topics and an application's internal topics, recording changes. */
/** What a reset of app's `orders` input throws (it is expected to refuse). */
function resetOrdersError(admins: Parameters<typeof runApplicationReset>[0]): Promise<unknown> {
  return runApplicationReset(admins, { applicationId: 'app', inputTopics: ['orders'] }).catch(
    (e: unknown) => e,
  );
}

function fakeCluster(groupState = 'Empty', protocolType: string | undefined = 'consumer') {
  const calls: string[] = [];
  const committed: CommittedOffset[] = [
    { topic: 'orders', partition: 0, offset: 40 },
    { topic: 'orders', partition: 1, offset: 12 },
  ];
  const logs: Record<string, { partition: number; low: number; high: number }[]> = {
    orders: [
      { partition: 0, low: 5, high: 60 },
      { partition: 1, low: 0, high: 20 },
    ],
    payments: [{ partition: 0, low: 0, high: 7 }],
  };
  const cluster = {
    describeGroup: async (groupId: string) => {
      calls.push(`describeGroup ${groupId}`);
      return { state: groupState, members: [] };
    },
    listTopics: async () => [
      'orders',
      'payments',
      'app-counts-changelog',
      'app-KSTREAM-AGGREGATE-STATE-STORE-0000000001-repartition',
      'app-output',
      'other-counts-changelog',
    ],
    fetchCommittedOffsets: async (groupId: string, topics: readonly string[]) => {
      calls.push(`fetchCommittedOffsets ${groupId} ${topics.join(',')}`);
      return committed.filter((c) => topics.includes(c.topic));
    },
    fetchTopicOffsets: async (topic: string) => logs[topic],
  } as unknown as ClusterAdmin;
  const reset: OffsetResetAdmin = {
    groupProtocolType: async () => protocolType,
    deleteTopics: async (topics) => void calls.push(`deleteTopics ${topics.join(',')}`),
    offsetsForTimestamp: async (topic, timestamp) => {
      calls.push(`offsetsForTimestamp ${topic} ${timestamp}`);
      return topic === 'orders'
        ? [
            { partition: 1, offset: -1 },
            { partition: 0, offset: 33 },
          ]
        : [{ partition: 0, offset: 2 }];
    },
    alterCommittedOffsets: async (groupId, offsets) =>
      void calls.push(
        `alterCommittedOffsets ${groupId} ${offsets.map((o) => `${o.topic}-${o.partition}@${o.offset}`).join(',')}`,
      ),
  };
  return { admins: { cluster, reset } satisfies ResetAdmins, calls };
}

describe('runApplicationReset', () => {
  it('commits every input partition at its first offset and deletes the internal topics', async () => {
    const { admins, calls } = fakeCluster();
    const report = await runApplicationReset(admins, {
      applicationId: 'app',
      inputTopics: ['orders', 'payments', 'missing'],
    });
    expect(report).toEqual({
      applicationId: 'app',
      dryRun: false,
      inputOffsets: [
        { topic: 'orders', partition: 0, from: 40, to: 5 },
        { topic: 'orders', partition: 1, from: 12, to: 0 },
        { topic: 'payments', partition: 0, from: null, to: 0 },
      ],
      missingInputTopics: ['missing'],
      deletedTopics: [
        'app-KSTREAM-AGGREGATE-STATE-STORE-0000000001-repartition',
        'app-counts-changelog',
      ],
    });
    expect(calls).toEqual([
      'describeGroup app',
      'fetchCommittedOffsets app orders,payments',
      'alterCommittedOffsets app orders-0@5,orders-1@0,payments-0@0',
      'deleteTopics app-KSTREAM-AGGREGATE-STATE-STORE-0000000001-repartition,app-counts-changelog',
    ]);
  });

  it('moves offsets to the first record at or after a time, the end where none is that recent', async () => {
    const { admins, calls } = fakeCluster('Dead');
    const report = await runApplicationReset(
      admins,
      {
        applicationId: 'app',
        inputTopics: ['orders'],
        position: { to: 'duration', durationMs: 60_000 },
      },
      1_000_000,
    );
    expect(report.inputOffsets).toEqual([
      { topic: 'orders', partition: 0, from: 40, to: 33 },
      { topic: 'orders', partition: 1, from: 12, to: 20 },
    ]);
    expect(calls).toContain('offsetsForTimestamp orders 940000');
    expect(calls).toContain('alterCommittedOffsets app orders-0@33,orders-1@20');
  });

  it('refuses while the group has members, changing nothing', async () => {
    for (const state of ['Stable', 'PreparingRebalance', 'CompletingRebalance']) {
      const { admins, calls } = fakeCluster(state);
      const error = await resetOrdersError(admins);
      expect(error).toBeInstanceOf(ApplicationActiveError);
      expect((error as ApplicationActiveError).message).toBe(
        `application app still has members (group state ${state}): stop every instance before resetting it`,
      );
      expect(calls).toEqual(['describeGroup app']);
    }
  });

  it('refuses a KIP-1071 streams group, whose members it cannot see, changing nothing', async () => {
    const { admins, calls } = fakeCluster('Dead', 'streams');
    const error = await resetOrdersError(admins);
    expect(error).toBeInstanceOf(UnsupportedGroupTypeError);
    expect((error as UnsupportedGroupTypeError).message).toBe(
      "application app's group is a streams group: nest-streams reset resets classic groups only (use Kafka's kafka-streams-application-reset)",
    );
    expect(calls).toEqual([]);
  });

  it('changes nothing on a dry run, and reports the same plan', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'reset-spec-'));
    try {
      mkdirSync(join(stateDir, 'app', '0_0'), { recursive: true });
      const { admins, calls } = fakeCluster();
      const report = await runApplicationReset(admins, {
        applicationId: 'app',
        inputTopics: ['orders'],
        position: { to: 'latest' },
        stateDir,
        dryRun: true,
      });
      expect(report.dryRun).toBe(true);
      expect(report.inputOffsets.map((o) => o.to)).toEqual([60, 20]);
      expect(report.cleanedStateDir).toBe(join(stateDir, 'app'));
      expect(calls).toEqual(['describeGroup app', 'fetchCommittedOffsets app orders']);
      expect(existsSync(join(stateDir, 'app', '0_0'))).toBe(true);
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
    }
  });

  it("deletes the application's task directories under the state directory", async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'reset-spec-'));
    try {
      mkdirSync(join(stateDir, 'app', '0_0', 'rocksdb'), { recursive: true });
      mkdirSync(join(stateDir, 'app', '1_3'), { recursive: true });
      const { admins } = fakeCluster();
      const report = await runApplicationReset(admins, {
        applicationId: 'app',
        inputTopics: [],
        stateDir,
      });
      expect(report.inputOffsets).toEqual([]);
      expect(existsSync(join(stateDir, 'app', '0_0'))).toBe(false);
      expect(existsSync(join(stateDir, 'app', '1_3'))).toBe(false);
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
    }
  });
});

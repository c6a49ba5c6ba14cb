import { IncorrectlyPartitionedTopicsError } from '../../../errors/incorrectly-partitioned-topics.error';
import { MissingInternalTopicsError } from '../../../errors/missing-internal-topics.error';
import { MissingSourceTopicError } from '../../../errors/missing-source-topic.error';
import { StaleTopologyError } from '../../../errors/stale-topology.error';
import { NetworkError } from '@platformatic/kafka';
import { ClusterFaultTimeoutError } from '../../../errors/cluster-fault-timeout.error';
import { platformaticTransientFault } from '../platformatic-transient-faults';
import {
  heartbeatsTimedOut,
  streamsGroupErrorAction,
  streamsGroupRejectedError,
  streamsGroupStatusOutcome,
} from './streams-group-errors';
import { taskIdsFor, taskIdsOf } from './streams-task-set';

describe('streams group errors and statuses', () => {
  it('retries coordinator errors, rejoins when fenced or unknown, and stops on the rest', () => {
    expect([-1, 14, 15, 16].map(streamsGroupErrorAction)).toEqual(Array(4).fill('retry'));
    expect([25, 110].map(streamsGroupErrorAction)).toEqual(['rejoin', 'rejoin']);
    expect([30, 81, 111, 130, 132].map(streamsGroupErrorAction)).toEqual(Array(5).fill('fatal'));
    const error = streamsGroupRejectedError('app', 132, 'older epoch');
    expect(error.toJSON()).toEqual({
      name: 'StreamsGroupRejectedError',
      code: 'STREAMS_GROUP_REJECTED',
      retriable: false,
      message:
        'the coordinator of streams group app refused this member: STREAMS_TOPOLOGY_FENCED (older epoch)',
    });
  });

  it('turns statuses into typed errors, fatal for missing and mis-partitioned topics', () => {
    const outcome = (statusCode: number, statusDetail: string) =>
      streamsGroupStatusOutcome('app', { statusCode, statusDetail }, ['in', 'other']);
    const missing = outcome(1, 'Source topics in are missing.');
    expect(missing.fatal).toBe(true);
    expect(missing.error).toBeInstanceOf(MissingSourceTopicError);
    expect((missing.error as MissingSourceTopicError).topics).toEqual(['in']);
    expect(missing.error).toMatchObject({ code: 'MISSING_SOURCE_TOPIC', retriable: true });
    const partitioned = outcome(2, 'Following topics do not have the same number of partitions');
    expect(partitioned.fatal).toBe(true);
    expect(partitioned.error).toBeInstanceOf(IncorrectlyPartitionedTopicsError);
    expect(partitioned.error).toMatchObject({
      code: 'INCORRECTLY_PARTITIONED_TOPICS',
      retriable: false,
    });
    const stale = outcome(0, 'newer');
    expect([stale.fatal, stale.error instanceof StaleTopologyError]).toEqual([false, true]);
    expect(stale.error).toMatchObject({ code: 'STALE_TOPOLOGY', retriable: false });
    const internal = outcome(3, 'Internal topics are missing: app-s-changelog');
    expect([internal.fatal, internal.error instanceof MissingInternalTopicsError]).toEqual([
      false,
      true,
    ]);
    expect(internal.error).toMatchObject({ code: 'MISSING_INTERNAL_TOPICS', retriable: true });
    expect(outcome(4, 'shutdown')).toEqual({
      status: { statusCode: 4, statusDetail: 'shutdown' },
      error: undefined,
      fatal: false,
    });
    expect(outcome(5, 'delayed').error).toBeUndefined();
  });

  it('converts task ids to and from the broker lists', () => {
    expect(taskIdsOf(null)).toBeNull();
    expect(
      taskIdsOf([
        { subtopologyId: '10', partitions: [1] },
        { subtopologyId: '2', partitions: [3, 0] },
      ]),
    ).toEqual(['2_0', '2_3', '10_1']);
    expect(taskIdsFor(['2_3', '10_1', '2_0'])).toEqual([
      { subtopologyId: '2', partitions: [0, 3] },
      { subtopologyId: '10', partitions: [1] },
    ]);
    expect(taskIdsFor([])).toEqual([]);
  });

  it('heartbeats that failed with a transient fault for the rebalance timeout: retriable (issue #38)', () => {
    const refused = new NetworkError('Connection to 127.0.0.1:9092 failed.');
    const error = heartbeatsTimedOut('g', 60_000, 30, refused, platformaticTransientFault);
    expect(error).toBeInstanceOf(ClusterFaultTimeoutError);
    expect(error).toMatchObject({ bound: 'the rebalance timeout', boundMs: 60_000, attempts: 30 });
    expect((error as ClusterFaultTimeoutError).cause).toBe(refused);
    const other = new Error('not a fault');
    expect(heartbeatsTimedOut('g', 60_000, 1, other, platformaticTransientFault)).toBe(other);
    expect(heartbeatsTimedOut('g', 60_000, 1, refused, undefined)).toBe(refused);
  });
});

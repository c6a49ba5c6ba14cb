import { HealthIndicatorService } from '@nestjs/terminus';
import { type KafkaStreams, KafkaStreamsState, type TaskMetadata } from '@nest-streams/streams';
import type { StreamsDeclarations } from '../discovery/internals/streams.explorer';
import { KafkaStreamsHost } from '../internals/kafka-streams.host';
import { StreamsHealthIndicator } from './streams-health.indicator';
import { StreamsStateTracker } from './internals/streams-state.tracker';

type FakeTask = Pick<TaskMetadata, 'stores' | 'restored'> & { taskId: { partition: number } };

function setup(state: KafkaStreamsState, tasks: FakeTask[], standbyLag = 0) {
  const streams = {
    state,
    activeTaskMetadata: () => tasks,
    allLocalStorePartitionLags: async () =>
      new Map([
        [
          'stats-store',
          new Map([
            [0, { currentOffsetPosition: 10, endOffsetPosition: 10, offsetLag: 0 }],
            [
              5,
              {
                currentOffsetPosition: 90,
                endOffsetPosition: 90 + standbyLag,
                offsetLag: standbyLag,
              },
            ],
          ]),
        ],
      ]),
  } as unknown as KafkaStreams;
  const declarations: StreamsDeclarations = {
    stores: new Map([['stats-store', { name: 'stats-store', options: {}, declaredBy: 'X' }]]),
    aggregations: [],
    topologyMethods: [],
  };
  const host = new KafkaStreamsHost();
  host.set(streams, declarations);
  const tracker = new StreamsStateTracker();
  return {
    indicator: new StreamsHealthIndicator(new HealthIndicatorService(), host, tracker),
    tracker,
  };
}

const task = (partition: number, restored = true): FakeTask => ({
  taskId: { partition },
  stores: ['stats-store'],
  restored,
});

describe('StreamsHealthIndicator', () => {
  it('is ready when RUNNING with every active store restored, with per-store details', async () => {
    const { indicator } = setup(KafkaStreamsState.RUNNING, [task(0)], 3);
    const result = await indicator.isReady('streams');
    expect(result).toEqual({
      streams: {
        status: 'up',
        state: 'RUNNING',
        rebalances: 0,
        stores: {
          'stats-store': {
            activePartitions: [0],
            standbyPartitions: [5],
            restored: true,
            restoring: [],
            standbyLag: { 5: 3 },
          },
        },
      },
    });
  });

  it('is not ready while rebalancing, or while a store restores (with progress)', async () => {
    expect(
      (await setup(KafkaStreamsState.REBALANCING, [task(0)]).indicator.isReady()).streams.status,
    ).toBe('down');

    const { indicator, tracker } = setup(KafkaStreamsState.RUNNING, [task(0, false)]);
    const listener = tracker.restoreListener();
    listener.onRestoreStart!(
      { topic: 'app-stats-store-changelog', partition: 0 },
      'stats-store',
      0,
      100,
    );
    listener.onBatchRestored!(
      { topic: 'app-stats-store-changelog', partition: 0 },
      'stats-store',
      24,
      25,
    );
    const result = await indicator.isReady();
    expect(result.streams.status).toBe('down');
    expect(result.streams).toMatchObject({
      stores: {
        'stats-store': {
          restored: false,
          restoring: [{ partition: 0, restored: 25, total: 100, progress: 0.25 }],
        },
      },
    });
  });

  it('is live unless the client is in ERROR or NOT_RUNNING', () => {
    for (const state of Object.values(KafkaStreamsState)) {
      const live = setup(state, []).indicator.isLive().streams.status;
      expect([state, live]).toEqual([
        state,
        state === KafkaStreamsState.ERROR || state === KafkaStreamsState.NOT_RUNNING
          ? 'down'
          : 'up',
      ]);
    }
  });

  it('counts rebalances and their duration', () => {
    const tracker = new StreamsStateTracker();
    const durations: (number | undefined)[] = [];
    tracker.onRebalance((d) => durations.push(d));
    tracker.onStateChange(KafkaStreamsState.REBALANCING, KafkaStreamsState.CREATED);
    tracker.onStateChange(KafkaStreamsState.RUNNING, KafkaStreamsState.REBALANCING);
    tracker.onStateChange(KafkaStreamsState.REBALANCING, KafkaStreamsState.RUNNING);
    expect(tracker.rebalances).toBe(2);
    expect(durations).toHaveLength(3);
    expect(durations[0]).toBeUndefined();
    expect(typeof durations[1]).toBe('number');
  });
});

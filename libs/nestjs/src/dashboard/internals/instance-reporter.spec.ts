import { KafkaStreamsState, TaskId, type KafkaStreams } from '@nest-streams/streams';
import { StreamsStateTracker } from '../../health/internals/streams-state.tracker';
import type { KafkaStreamsHost } from '../../client/internals/kafka-streams.host';
import { StreamsModuleSettings } from '../../settings/internals/streams-module.settings';
import type { FiguresSampler } from './figures-sampler';
import { InstanceReporter } from './instance-reporter';

describe("an instance's report", () => {
  it('says its state, tasks, copies behind, restores in progress, rebalances and figures', async () => {
    const settings = new StreamsModuleSettings({
      streams: {
        applicationId: 'report-spec',
        bootstrapServers: ['127.0.0.1:1'],
        applicationServer: '127.0.0.1:8001',
      },
      security: { clusterSecret: 'dashboard-spec-cluster-secret' },
    });
    let lags: () => Promise<Map<string, Map<number, { offsetLag: number }>>> = async () =>
      new Map([
        [
          'stats-store',
          new Map([
            [1, { offsetLag: 0 }],
            [2, { offsetLag: 17 }],
          ]),
        ],
      ]);
    const streams = {
      state: KafkaStreamsState.REBALANCING,
      localTaskIds: () => ({ active: ['0_0', '0_2'], standby: ['0_1'], warmup: ['0_1'] }),
      activeTaskMetadata: () => [
        { taskId: new TaskId(0, 0), restored: true },
        { taskId: new TaskId(0, 2), restored: false },
      ],
      allLocalStorePartitionLags: () => lags(),
    } as unknown as KafkaStreams;
    const host = { created: true, streams } as unknown as KafkaStreamsHost;
    const tracker = new StreamsStateTracker();
    tracker.onStateChange(KafkaStreamsState.REBALANCING, KafkaStreamsState.CREATED);
    const listener = tracker.restoreListener();
    const tp = { topic: 'report-spec-stats-store-changelog', partition: 2 };
    listener.onRestoreStart?.(tp, 'stats-store', 100, 300);
    listener.onBatchRestored?.(tp, 'stats-store', 149, 50);
    const done = { topic: 'report-spec-stats-store-changelog', partition: 0 };
    listener.onRestoreStart?.(done, 'stats-store', 0, 10);
    listener.onRestoreEnd?.(done, 'stats-store', 10);
    const figures = [{ at: 5, processedPerSec: 1 }];
    const sampler = { samples: () => figures } as unknown as FiguresSampler;
    const reporter = new InstanceReporter(settings, host, tracker, sampler);

    const report = await reporter.report();
    expect(report).toEqual({
      host: '127.0.0.1:8001',
      state: 'REBALANCING',
      at: expect.any(Number),
      rebalances: 1,
      lastRebalanceAt: tracker.lastRebalanceAt,
      lastRebalanceMs: null,
      tasks: { active: ['0_0', '0_2'], standby: ['0_1'], warmup: ['0_1'], restoring: ['0_2'] },
      lags: [
        { store: 'stats-store', partition: 1, lag: 0 },
        { store: 'stats-store', partition: 2, lag: 17 },
      ],
      restores: [{ store: 'stats-store', partition: 2, restored: 50, total: 200 }],
      figures,
    });
    expect(report.lastRebalanceAt).toEqual(expect.any(Number));

    // The broker does not answer: the report still comes, without lags.
    lags = () => Promise.reject(new Error('timeout'));
    await expect(reporter.report()).resolves.toMatchObject({ state: 'REBALANCING', lags: [] });
  });
});

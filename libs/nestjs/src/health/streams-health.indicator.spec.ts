import { Logger } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import {
  KafkaAuthenticationError,
  type KafkaStreams,
  KafkaStreamsState,
  type TaskMetadata,
} from '@nest-streams/streams';
import type { StreamsDeclarations } from '../discovery/internals/streams.explorer';
import { KafkaStreamsHost } from '../client/internals/kafka-streams.host';
import { StreamsModuleSettings } from '../settings/internals/streams-module.settings';
import { StreamsHealthIndicator } from './streams-health.indicator';
import { StreamsStateTracker } from './internals/streams-state.tracker';

type FakeTask = Pick<TaskMetadata, 'stores' | 'restored'> & { taskId: { partition: number } };

function setup(
  state: KafkaStreamsState,
  tasks: FakeTask[],
  standbyLag = 0,
  options: { readiness?: 'available' | 'strict'; lastProgressAt?: number } = {},
) {
  const streams = {
    state,
    activeTaskMetadata: () => tasks,
    lastProgressAt: () => options.lastProgressAt ?? Date.now(),
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
  const settings = new StreamsModuleSettings({
    streams: { applicationId: 'app', bootstrapServers: ['127.0.0.1:1'] },
    health: { readiness: options.readiness, livenessStallMs: 60_000 },
  });
  return {
    indicator: new StreamsHealthIndicator(new HealthIndicatorService(), host, tracker, settings),
    tracker,
    streams,
  };
}

/** A tracker that saw the client reach RUNNING once (its first assignment restored). */
function started(tracker: StreamsStateTracker): void {
  tracker.onStateChange(KafkaStreamsState.REBALANCING, KafkaStreamsState.CREATED);
  tracker.onStateChange(KafkaStreamsState.RUNNING, KafkaStreamsState.REBALANCING);
}

const task = (partition: number, restored = true): FakeTask => ({
  taskId: { partition },
  stores: ['stats-store'],
  restored,
});

describe('StreamsHealthIndicator', () => {
  let lines: string[];
  beforeEach(() => {
    lines = [];
    const at = (level: string) => (message: unknown) =>
      void lines.push(`${level} ${String(message)}`);
    jest.spyOn(Logger.prototype, 'log').mockImplementation(at('log'));
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(at('warn'));
  });
  afterEach(() => jest.restoreAllMocks());

  it("logs each probe's answer when it changes, not at every probe", async () => {
    const { indicator, tracker, streams } = setup(KafkaStreamsState.REBALANCING, [task(0, false)]);
    tracker.onStateChange(KafkaStreamsState.REBALANCING, KafkaStreamsState.CREATED);
    for (let probe = 0; probe < 5; probe++) {
      await indicator.isStarted();
      await indicator.isReady();
      await indicator.isLive();
    }
    started(tracker);
    Object.assign(streams, { state: KafkaStreamsState.RUNNING });
    for (let probe = 0; probe < 5; probe++) {
      await indicator.isStarted();
      await indicator.isReady();
      await indicator.isLive();
    }
    expect(lines).toEqual([
      'log startup down [STARTING]: starting: the first assignment is not restored yet (REBALANCING)',
      'log readiness down [STARTING]: starting: the first assignment is not restored yet (REBALANCING)',
      'log liveness up',
      'log startup up',
      'log readiness up',
    ]);
  });

  it('is started and ready when RUNNING, with per-store details in every answer', async () => {
    const { indicator, tracker } = setup(KafkaStreamsState.RUNNING, [task(0)], 3);
    started(tracker);
    const details = {
      state: 'RUNNING',
      rebalancing: false,
      started: true,
      shuttingDown: false,
      reason: 'running',
      code: 'RUNNING',
      rebalances: 1,
      stores: {
        'stats-store': {
          activePartitions: [0],
          standbyPartitions: [5],
          restored: true,
          restoring: [],
          standbyLag: { 5: 3 },
        },
      },
    };
    expect(await indicator.isReady('streams')).toEqual({ streams: { status: 'up', ...details } });
    expect(await indicator.isStarted('streams')).toEqual({ streams: { status: 'up', ...details } });
    expect(await indicator.isLive('streams')).toEqual({ streams: { status: 'up', ...details } });
  });

  it('names the cause a start failed on, with its code: refused credentials', async () => {
    const { indicator, streams } = setup(KafkaStreamsState.ERROR, []);
    const refused = new KafkaAuthenticationError(
      'sasl',
      "the Kafka brokers 10.0.0.9:9093 refused the SASL credentials of user 'orders' (SCRAM-SHA-512): check kafka.sasl",
    );
    Object.assign(streams, { startupProblem: refused });
    const reason = `could not start: ${refused.message}`;
    for (const probe of [indicator.isReady(), indicator.isLive(), indicator.isStarted()]) {
      expect((await probe).streams).toMatchObject({
        status: 'down',
        state: 'ERROR',
        reason,
        code: 'KAFKA_AUTHENTICATION_FAILED',
        problem: { code: 'KAFKA_AUTHENTICATION_FAILED', message: refused.message },
      });
    }
    expect(lines).toEqual([
      `log readiness down [KAFKA_AUTHENTICATION_FAILED]: ${reason}`,
      `log liveness down [KAFKA_AUTHENTICATION_FAILED]: ${reason}`,
      `log startup down [KAFKA_AUTHENTICATION_FAILED]: ${reason}`,
    ]);
  });

  it('is neither started nor ready while restoring its first assignment (with progress)', async () => {
    const { indicator, tracker } = setup(KafkaStreamsState.REBALANCING, [task(0, false)]);
    tracker.onStateChange(KafkaStreamsState.REBALANCING, KafkaStreamsState.CREATED);
    const listener = tracker.restoreListener();
    const tp = { topic: 'app-stats-store-changelog', partition: 0 };
    listener.onRestoreStart!(tp, 'stats-store', 0, 100);
    listener.onBatchRestored!(tp, 'stats-store', 24, 25);
    const result = await indicator.isReady();
    expect(result.streams).toMatchObject({
      status: 'down',
      started: false,
      rebalancing: true,
      stores: {
        'stats-store': {
          restored: false,
          restoring: [{ partition: 0, restored: 25, total: 100, progress: 0.25 }],
        },
      },
    });
    expect((await indicator.isStarted()).streams.status).toBe('down');
    expect((await indicator.isLive()).streams.status).toBe('up');
  });

  it('stays ready through a rebalance after its first restore; strict readiness does not', async () => {
    const available = setup(KafkaStreamsState.REBALANCING, [task(0)]);
    started(available.tracker);
    available.tracker.onStateChange(KafkaStreamsState.REBALANCING, KafkaStreamsState.RUNNING);
    expect((await available.indicator.isReady()).streams).toMatchObject({
      status: 'up',
      rebalancing: true,
    });
    const strict = setup(KafkaStreamsState.REBALANCING, [task(0)], 0, { readiness: 'strict' });
    started(strict.tracker);
    expect((await strict.indicator.isReady()).streams.status).toBe('down');
  });

  it('goes unready, but stays live, as soon as the shutdown begins', async () => {
    const { indicator, tracker } = setup(KafkaStreamsState.RUNNING, [task(0)]);
    started(tracker);
    tracker.markShuttingDown();
    expect((await indicator.isReady()).streams).toMatchObject({
      status: 'down',
      shuttingDown: true,
    });
    expect((await indicator.isLive()).streams.status).toBe('up');
  });

  it('is not live in ERROR, stopped by itself, or with a stalled stream thread', async () => {
    for (const state of Object.values(KafkaStreamsState)) {
      const { indicator, tracker } = setup(state, []);
      started(tracker);
      const dead =
        state === KafkaStreamsState.ERROR ||
        state === KafkaStreamsState.PENDING_ERROR ||
        state === KafkaStreamsState.NOT_RUNNING ||
        state === KafkaStreamsState.PENDING_SHUTDOWN;
      expect([state, (await indicator.isLive()).streams.status]).toEqual([
        state,
        dead ? 'down' : 'up',
      ]);
    }
    const stalled = setup(KafkaStreamsState.RUNNING, [task(0)], 0, {
      lastProgressAt: Date.now() - 61_000,
    });
    started(stalled.tracker);
    expect((await stalled.indicator.isLive()).streams).toMatchObject({ status: 'down' });
    // Idle without partitions is no stall.
    const idle = setup(KafkaStreamsState.RUNNING, [], 0, { lastProgressAt: Date.now() - 61_000 });
    started(idle.tracker);
    expect((await idle.indicator.isLive()).streams.status).toBe('up');
  });

  it('counts rebalances, their duration and when the last began', () => {
    let clock = 1_000;
    const tracker = new (class extends StreamsStateTracker {
      protected override now(): number {
        return clock;
      }
    })();
    const durations: (number | undefined)[] = [];
    tracker.onRebalance((d) => durations.push(d));
    expect(tracker.lastRebalanceAt).toBeUndefined();
    tracker.onStateChange(KafkaStreamsState.REBALANCING, KafkaStreamsState.CREATED);
    clock = 1_250;
    tracker.onStateChange(KafkaStreamsState.RUNNING, KafkaStreamsState.REBALANCING);
    clock = 5_000;
    tracker.onStateChange(KafkaStreamsState.REBALANCING, KafkaStreamsState.RUNNING);
    expect(tracker.rebalances).toBe(2);
    expect(durations).toEqual([undefined, 250, undefined]);
    expect(tracker.lastRebalanceDurationMs).toBe(250);
    expect(tracker.lastRebalanceAt).toBe(5_000);
  });
});

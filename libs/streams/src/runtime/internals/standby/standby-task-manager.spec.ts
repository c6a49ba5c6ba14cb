import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ThrowawayGroupClient } from '../../../client/kafkajs/throwaway-group-consumer';
import type { ClusterAdmin } from '../../../client/cluster-admin';
import { Consumed } from '../../../kstream/consumed';
import { Materialized } from '../../../kstream/materialized';
import { StreamsBuilder } from '../../../kstream/streams-builder';
import { Serdes } from '../../../serde/serdes';
import { Stores } from '../../../state/stores';
import { StandbyTaskManager } from './standby-task-manager';
import { StateDirectory } from '../task-state/state-directory';
import { resolveStreamsConfig } from '../../streams-config';

/** kafkajs consumer doubles: every consumer the manager makes, with its calls and events. */
function fakeKafka() {
  const consumers: { calls: string[]; emitter: EventEmitter }[] = [];
  const kafka = {
    consumer: () => {
      const emitter = new EventEmitter();
      const calls: string[] = [];
      consumers.push({ calls, emitter });
      return {
        events: { CRASH: 'crash' },
        on: (event: string, listener: (e: unknown) => void) => emitter.on(event, listener),
        connect: async () => void calls.push('connect'),
        subscribe: async () => void calls.push('subscribe'),
        run: async () => void calls.push('run'),
        seek: (s: { topic: string; partition: number; offset: string }) =>
          void calls.push(`seek ${s.topic}:${s.partition}@${s.offset}`),
        disconnect: async () => void calls.push('disconnect'),
      };
    },
  } as unknown as ThrowawayGroupClient;
  return { kafka, consumers };
}

describe('StandbyTaskManager', () => {
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'standby-manager-'))));
  afterEach(() => {
    jest.useRealTimers();
    rmSync(root, { recursive: true, force: true });
  });

  function manager(endOffsets: { partition: number; high: number }[] = []) {
    const builder = new StreamsBuilder();
    builder.table(
      'users',
      Consumed.with(Serdes.String(), Serdes.String()),
      Materialized.as<string, string>(Stores.inMemoryKeyValueStore('users-store')),
    );
    const { kafka, consumers } = fakeKafka();
    const warnings: string[] = [];
    const admin = {
      deleteGroups: async () => undefined,
      fetchTopicOffsets: async () => endOffsets.map((o) => ({ ...o, low: 0 })),
    } as unknown as ClusterAdmin;
    const standbys = new StandbyTaskManager({
      topology: builder.build(),
      config: resolveStreamsConfig({ applicationId: 'app', bootstrapServers: ['localhost:1'] }),
      kafka,
      admin,
      stateDirectory: new StateDirectory({ stateDir: root, applicationId: 'app' }),
      logger: {
        error: () => undefined,
        info: () => undefined,
        debug: () => undefined,
        warn: (m) => void warnings.push(m),
      },
    });
    return { standbys, consumers, warnings };
  }

  it('reports no lag for a copy until its changelog end is known, then the true distance', async () => {
    const ends: { partition: number; high: number }[] = [];
    const { standbys } = manager(ends);
    await standbys.assign(['0_0']);
    const task = standbys.get('0_0')!;
    // Just opened, end offset never fetched: the copy cannot say how stale it is.
    expect(standbys.storeLag(task, 'users-store')).toBeUndefined();
    expect(standbys.lags()).toEqual(new Map());
    ends.push({ partition: 0, high: 120 });
    await standbys.refreshEndOffsets();
    expect(standbys.storeLag(task, 'users-store')).toBe(120);
    const [partition] = task.partitions;
    task.apply(partition, [], 99);
    expect(standbys.storeLag(task, 'users-store')).toBe(20);
    expect(standbys.lags().get('users-store')?.get(0)).toEqual({
      currentOffsetPosition: 100,
      endOffsetPosition: 120,
      offsetLag: 20,
    });
    // A store the task does not have (or one without a changelog) is no queryable copy.
    expect(standbys.storeLag(task, 'other-store')).toBeUndefined();
    await standbys.closeAll();
  });

  it('replaces its changelog consumer after a crash kafkajs does not recover from', async () => {
    const { standbys, consumers, warnings } = manager();
    await standbys.assign(['0_0']);
    expect(consumers).toHaveLength(1);
    expect(consumers[0].calls).toEqual([
      'connect',
      'subscribe',
      'run',
      'seek app-users-store-changelog:0@0',
    ]);

    // A crash kafkajs restarts by itself: nothing to do, however long one waits.
    jest.useFakeTimers();
    consumers[0].emitter.emit('crash', { payload: { error: new Error('blip'), restart: true } });
    await jest.advanceTimersByTimeAsync(60_000);
    expect(consumers).toHaveLength(1);

    // A crash it does not restart: a new consumer from the standbys' positions after a second.
    consumers[0].emitter.emit('crash', { payload: { error: new Error('fatal'), restart: false } });
    await jest.advanceTimersByTimeAsync(999);
    expect(consumers).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(consumers).toHaveLength(2);
    expect(consumers[0].calls.at(-1)).toBe('disconnect');
    expect(consumers[1].calls).toEqual([
      'connect',
      'subscribe',
      'run',
      'seek app-users-store-changelog:0@0',
    ]);
    expect(warnings).toEqual([
      'standby changelog consumer crashed (Error: fatal); restarting it in 1000 ms',
    ]);

    // The crashed consumer was replaced: its late events change nothing; nor does a crash after
    // the manager closed.
    consumers[0].emitter.emit('crash', { payload: { error: new Error('late'), restart: false } });
    await jest.advanceTimersByTimeAsync(60_000);
    expect(consumers).toHaveLength(2);
    await standbys.closeAll();
    consumers[1].emitter.emit('crash', { payload: { error: new Error('closed'), restart: false } });
    await jest.advanceTimersByTimeAsync(60_000);
    expect(consumers).toHaveLength(2);
  });
});

import { TransactionAbortedError } from '../../../errors/internals/transaction-aborted.error';
import { EventEmitter } from 'node:events';
import { encodeInfo, type AssignmentInfo } from '../../../cluster/internals/assignment-info';
import { cancelGroupRejoin, groupRejoinPending } from '../../../client/kafkajs/group-rejoin';
import { AssignerProtocol } from '../../../client/kafkajs/kafkajs';
import { kafkajsGroupConsumerFactory } from '../../../client/kafkajs/kafkajs-group-consumer';
import { CommitFailedError } from '../../../errors/internals/commit-failed.error';
import { StreamThread } from './stream-thread';
import {
  streamThreadOptions,
  threadCallbacks,
} from '../../../../test-support/stream-thread-doubles';

/** A kafkajs consumer double: records calls and lets the test emit its instrumentation events. */
function fakeConsumer() {
  const emitter = new EventEmitter();
  const calls: string[] = [];
  /** Pauses and resumes of input partitions, as `pause input:0,1`. */
  const flow: string[] = [];
  const record =
    (what: string) =>
    (partitions: { topic: string; partitions: number[] }[]): void =>
      void flow.push(`${what} ${partitions.map((p) => `${p.topic}:${p.partitions}`).join(' ')}`);
  /** What describeGroup answers: each member's assignment. */
  const assignments = new Map<string, AssignmentInfo>();
  const consumer = {
    describeGroup: async () => ({
      members: [...assignments].map(([memberId, info]) => ({
        memberId,
        memberAssignment: AssignerProtocol.MemberAssignment.encode({
          version: 1,
          assignment: {},
          userData: encodeInfo(info),
        }),
      })),
    }),
    events: {
      REBALANCING: 'rebalancing',
      GROUP_JOIN: 'group-join',
      CRASH: 'crash',
      FETCH: 'fetch',
      HEARTBEAT: 'heartbeat',
      REQUEST: 'request',
    },
    on: (event: string, listener: (e: unknown) => void) => emitter.on(event, listener),
    connect: async () => void calls.push('connect'),
    subscribe: async () => void calls.push('subscribe'),
    run: async () => void calls.push('run'),
    stop: async () => void calls.push('stop'),
    disconnect: async () => void calls.push('disconnect'),
    pause: record('pause'),
    resume: record('resume'),
  };
  return { consumer, emitter, calls, flow, assignments };
}

/** What a test changes of the thread's task manager double (it sees the created tasks). */
type CreatedTasks = Map<
  string,
  { partitions: { topic: string; partition: number }[]; restored: boolean }
>;
type TasksOverrides = (created: CreatedTasks) => Record<string, unknown>;

function thread(tasksOverrides: TasksOverrides = () => ({})) {
  const { consumer, emitter, calls, flow, assignments } = fakeConsumer();
  let consumerConfig: {
    retry?: { restartOnFailure?: (e: Error) => Promise<boolean> };
    maxBytesPerPartition?: number;
  } = {};
  const created: CreatedTasks = new Map();
  const restored = { resolve: (): void => undefined, promise: Promise.resolve() };
  restored.promise = new Promise<void>((resolve) => (restored.resolve = resolve));
  const kafka = {
    consumer: (config: typeof consumerConfig) => {
      consumerConfig = config;
      return consumer;
    },
    // The engine's own kafkajs cluster: three brokers, each naming node 1 the group coordinator.
    [Symbol('private:Kafka:createCluster')]: () => ({
      connect: async () => undefined,
      disconnect: async () => undefined,
      refreshMetadata: async () => undefined,
      refreshMetadataIfNecessary: async () => undefined,
      getNodeIds: () => ['1', '2', '3'],
      findBroker: async ({ nodeId }: { nodeId: string }) => ({
        nodeId: Number(nodeId),
        brokerAddress: `127.0.0.1:909${nodeId}`,
        findGroupCoordinator: async () => ({
          coordinator: { nodeId: 1, host: '127.0.0.1', port: 9091 },
        }),
      }),
    }),
  } as unknown as Parameters<typeof kafkajsGroupConsumerFactory>[0];
  const listener = threadCallbacks(jest.fn);
  const warnings: string[] = [];
  const options = streamThreadOptions({
    logger: { info: () => undefined, warn: (message) => void warnings.push(message) },
    groupConsumers: kafkajsGroupConsumerFactory(kafka),
    tasks: {
      start: async () => undefined,
      commit: async () => 0,
      closeAll: async () => undefined,
      close: async (id: string) => void created.delete(id),
      tasks: () => [],
      taskIds: () => [...created.keys()],
      get: (id: string) => created.get(id),
      // A task is created (its stores restored) once `restored` resolves.
      create: async (id: string) => {
        await restored.promise;
        created.set(id, {
          partitions: [{ topic: 'input', partition: Number(id.split('_')[1]) }],
          restored: true,
        });
      },
      suspendQueries: () => undefined,
      cancelCreations: async () => undefined,
      creationOf: () => undefined,
      ...tasksOverrides(created),
    },
    listener,
    protocol: 'eager',
  });
  return {
    streamThread: new StreamThread(options),
    emitter,
    calls,
    flow,
    assignments,
    listener,
    warnings,
    restored,
    restartOnFailure: () => consumerConfig.retry!.restartOnFailure!(new Error('crash')),
    consumerConfig: () => consumerConfig,
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

/** Process p-a's assignment of the active tasks `ids` (no standbys, no host map). */
const activeAssignment = (ids: string[], probingRebalanceAtMs?: number): AssignmentInfo => ({
  version: 1,
  processId: 'p-a',
  active: ids,
  standby: [],
  warmup: [],
  hosts: [],
  probingRebalanceAtMs,
});

/** Member m-a joins the group, assigned `info`'s active tasks (their partitions of `input`). */
function join(t: ReturnType<typeof thread>, info: AssignmentInfo): void {
  t.assignments.set('m-a', info);
  t.emitter.emit('group-join', {
    payload: {
      memberId: 'm-a',
      memberAssignment: { input: info.active.map((id) => Number(id.split('_')[1])) },
    },
  });
}

describe('StreamThread after stop (a broker outage replaced it)', () => {
  it('lets kafkajs restart a crashed consumer only while the thread runs', async () => {
    const t = thread();
    await t.streamThread.start();
    await expect(t.restartOnFailure()).resolves.toBe(true);
    await t.streamThread.stop();
    await expect(t.restartOnFailure()).resolves.toBe(false);
  });

  it("fetches with the configured max.partition.fetch.bytes (kafkajs' maxBytesPerPartition)", async () => {
    const t = thread();
    await t.streamThread.start();
    expect(t.consumerConfig().maxBytesPerPartition).toBe(262_144);
    await t.streamThread.stop();
  });

  it('makes a consumer that kafkajs restarted anyway leave, without touching the client', async () => {
    const t = thread();
    await t.streamThread.start();
    await t.streamThread.stop();
    expect(t.calls).toEqual(['connect', 'subscribe', 'run', 'stop', 'disconnect']);

    // kafkajs' restart timer fired during the stop: the old consumer rejoins the group.
    t.emitter.emit('rebalancing', {});
    t.emitter.emit('group-join', { payload: { memberId: 'zombie', memberAssignment: {} } });
    await new Promise((resolve) => setImmediate(resolve));

    expect(t.calls.slice(5)).toEqual(['disconnect']);
    expect(t.listener.onRebalancing).not.toHaveBeenCalled();
    expect(t.listener.onAssignment).not.toHaveBeenCalled();
    expect(t.listener.onRunning).not.toHaveBeenCalled();
    expect(t.listener.onError).not.toHaveBeenCalled();
  });

  it('still reports a rebalance while running', async () => {
    const t = thread();
    await t.streamThread.start();
    t.emitter.emit('rebalancing', {});
    expect(t.listener.onRebalancing).toHaveBeenCalledTimes(1);
    await t.streamThread.stop();
  });
});

describe('StreamThread probing rebalance (warm-ups placed)', () => {
  const warmupAssignment = (probingRebalanceAtMs: number): AssignmentInfo => ({
    version: 1,
    processId: 'p-b',
    active: [],
    standby: ['0_1'],
    warmup: ['0_1'],
    hosts: [],
    probingRebalanceAtMs,
  });

  it('rejoins as the same member, never leaving the group, once per probing time', async () => {
    const t = thread();
    await t.streamThread.start();
    const at = Date.now();
    t.assignments.set('m-b', warmupAssignment(at));
    t.emitter.emit('group-join', { payload: { memberId: 'm-b', memberAssignment: {} } });
    await settle();

    // Leaving would let the group form a generation without this member, whose assignor
    // gives this member's tasks (and, when every member probes, all tasks) to whoever is
    // back first, restoring whole changelogs.
    expect(t.calls).toEqual(['connect', 'subscribe', 'run']);
    expect(groupRejoinPending('app', 'm-b')).toBe(true);

    // The heartbeat answered the request; the rejoin changed nothing and handed the same
    // assignment back: no second probe for the same time.
    cancelGroupRejoin('app', 'm-b');
    t.emitter.emit('group-join', { payload: { memberId: 'm-b', memberAssignment: {} } });
    await settle();
    expect(groupRejoinPending('app', 'm-b')).toBe(false);

    // A new assignment asking for another probe gets one.
    t.assignments.set('m-b', warmupAssignment(at + 1));
    t.emitter.emit('group-join', { payload: { memberId: 'm-b', memberAssignment: {} } });
    await settle();
    expect(groupRejoinPending('app', 'm-b')).toBe(true);
    expect(t.calls).toEqual(['connect', 'subscribe', 'run']);

    await t.streamThread.stop();
    expect(groupRejoinPending('app', 'm-b')).toBe(false);
  });
});

describe('StreamThread input during restores', () => {
  const active = (ids: string[]): AssignmentInfo => activeAssignment(ids, 0);

  it('pauses the assigned input on a join and resumes it once the tasks are restored', async () => {
    const t = thread();
    await t.streamThread.start();
    join(t, active(['0_0', '0_1']));
    await settle();
    expect(t.flow).toEqual(['pause input:0,1']); // still restoring
    expect(t.listener.onRunning).not.toHaveBeenCalled();

    t.restored.resolve();
    await settle();
    expect(t.flow).toEqual(['pause input:0,1', 'resume input:0,1']);
    expect(t.listener.onRunning).toHaveBeenCalledTimes(1);
    await t.streamThread.stop();
  });

  it("leaves a later join's input paused when an earlier assignment finishes restoring", async () => {
    const t = thread();
    await t.streamThread.start();
    join(t, active(['0_0', '0_1']));
    await settle();
    join(t, active(['0_0']));
    await settle();

    t.restored.resolve();
    await settle();
    // The first assignment's restores ended after the second join: only the second resumes.
    expect(t.flow).toEqual(['pause input:0,1', 'pause input:0', 'resume input:0']);
    expect(t.listener.onRunning).toHaveBeenCalledTimes(2);
    await t.streamThread.stop();
  });
});

describe('StreamThread when a commit is refused because the group moved on', () => {
  const active = (ids: string[]): AssignmentInfo => activeAssignment(ids);
  const refused = () =>
    new CommitFailedError('app', { cause: new Error('ILLEGAL_GENERATION (stale generation)') });

  /** A thread whose tasks always need a commit, and whose commits are refused. */
  function refusingThread(exactlyOnce: boolean, refusal: () => Error = refused) {
    const events: string[] = [];
    const t = thread((created) => ({
      exactlyOnce,
      commit: async (_consumer: unknown, force = false) => {
        if (created.size === 0) return 0;
        events.push(force ? 'commit (forced)' : 'commit');
        throw refusal();
      },
      tasks: () =>
        [...created.keys()].map((id) => ({
          restored: true,
          task: { id, punctuateWallClock: () => undefined, commitNeeded: () => true },
        })),
      close: async (id: string, clean: boolean) => {
        events.push(`close ${id} ${clean ? 'clean' : 'dirty'}`);
        created.delete(id);
      },
      resetThreadProducer: async () => void events.push('producer replaced'),
    }));
    return { t, events };
  }

  async function joinWithTasks(t: ReturnType<typeof thread>, ids: string[]): Promise<void> {
    await t.streamThread.start();
    join(t, active(ids));
    t.restored.resolve();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(t.listener.onRunning).toHaveBeenCalledTimes(1);
  }

  it('exactly-once: the tasks migrated; every task closes dirty, the producer is replaced, the member rejoins', async () => {
    const { t, events } = refusingThread(true);
    await joinWithTasks(t, ['0_0', '0_1']);
    // The commit interval (100 ms) passes: the tick commits, the commit is refused.
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(events).toEqual(['commit', 'close 0_0 dirty', 'close 0_1 dirty', 'producer replaced']);
    // kafkajs' rejoin: stop the consumer and run it again (a new join).
    expect(t.calls).toEqual(['connect', 'subscribe', 'run', 'stop', 'run']);
    expect(t.listener.onError).not.toHaveBeenCalled();
    await t.streamThread.stop();
  });

  it('exactly-once: the broker aborted the transaction; the tasks close dirty and come back, the client stays up', async () => {
    // A transaction that ran past transaction.timeout.ms while a broker hung: its next Produce
    // is answered INVALID_TXN_STATE (Kafka Streams' TaskCorruptedException, not a fatal error).
    const aborted = () => new TransactionAbortedError('app-0_0', 'INVALID_TXN_STATE');
    const { t, events } = refusingThread(true, aborted);
    await joinWithTasks(t, ['0_0', '0_1']);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(events).toEqual(['commit', 'close 0_0 dirty', 'close 0_1 dirty', 'producer replaced']);
    expect(t.calls).toEqual(['connect', 'subscribe', 'run', 'stop', 'run']);
    expect(t.listener.onError).not.toHaveBeenCalled();
    expect(t.warnings).toContainEqual(
      expect.stringMatching(
        /^transaction aborted \(the transaction of producer app-0_0 was aborted by the broker \(INVALID_TXN_STATE\)\); closing the tasks dirty and rejoining$/,
      ),
    );
    await t.streamThread.stop();
  });

  it('at-least-once: the offsets stay pending and the tasks stay open (no error)', async () => {
    const { t, events } = refusingThread(false);
    await joinWithTasks(t, ['0_0', '0_1']);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(events.filter((e) => e === 'commit').length).toBeGreaterThanOrEqual(1);
    expect(events.filter((e) => e.startsWith('close') || e === 'producer replaced')).toEqual([]);
    expect(t.calls).toEqual(['connect', 'subscribe', 'run']);
    expect(t.listener.onError).not.toHaveBeenCalled();
    await t.streamThread.stop();
  });
});

describe('StreamThread when the group stops answering its heartbeats', () => {
  it('reads no task as active once none was answered for the session timeout (10 s), again after one is', async () => {
    const doubts: boolean[] = [];
    const t = thread(() => ({ setMembershipInDoubt: (d: boolean) => void doubts.push(d) }));
    await t.streamThread.start();
    join(t, activeAssignment(['0_0', '0_1']));
    t.restored.resolve();
    await settle();
    const start = Date.now();
    const clock = jest.spyOn(Date, 'now');
    try {
      clock.mockImplementation(() => start + 9_000);
      await new Promise((resolve) => setTimeout(resolve, 250)); // ticks every 100 ms
      expect(doubts).toEqual([]);
      clock.mockImplementation(() => start + 10_500);
      await new Promise((resolve) => setTimeout(resolve, 250));
      expect(doubts).toEqual([true]);
      // A heartbeat answered by node 3, which the other brokers no longer name the coordinator
      // (it hung while the group moved): the member stays in doubt.
      t.emitter.emit('request', { payload: { apiName: 'Heartbeat', broker: '127.0.0.1:9093' } });
      t.emitter.emit('heartbeat', {});
      await settle();
      expect(doubts).toEqual([true]);
      expect(t.warnings).toContainEqual(
        expect.stringContaining(
          'COORDINATOR_MOVED_WHILE_ASKED: answered by 127.0.0.1:9093, coordinated by node 1 at 127.0.0.1:9091',
        ),
      );
      // kafkajs reports the heartbeat the coordinator answered: through the adapter to the thread.
      t.emitter.emit('request', { payload: { apiName: 'Heartbeat', broker: '127.0.0.1:9091' } });
      t.emitter.emit('heartbeat', {});
      await settle();
      expect(doubts).toEqual([true, false]);
    } finally {
      clock.mockRestore();
    }
    await t.streamThread.stop();
  });
});

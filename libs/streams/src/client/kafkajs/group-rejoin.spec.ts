import {
  beforeGroupRejoin,
  cancelGroupRejoin,
  groupRejoinPending,
  installGroupRejoin,
  requestGroupRejoin,
  type HeartbeatingConsumerGroup,
} from './group-rejoin';
import { locateKafkajs } from './kafkajs-internals';

class FakeGroup implements HeartbeatingConsumerGroup {
  heartbeats = 0;
  constructor(
    readonly groupId: string,
    readonly memberId: string | null,
  ) {}
  readonly steps: string[] = [];
  async heartbeat(_options: { interval: number }): Promise<void> {
    this.heartbeats++;
  }
  async joinAndSync(): Promise<void> {
    this.steps.push('join');
  }
}

const rebalanceError = (message: string) =>
  Object.assign(new Error(message), { type: 'REBALANCE_IN_PROGRESS' });

describe('group rejoin (enforceRebalance for kafkajs)', () => {
  it('asks nothing until the heartbeat is patched', () => {
    expect(requestGroupRejoin('app', 'm-0')).toBe(false);
    expect(groupRejoinPending('app', 'm-0')).toBe(false);
  });

  it("fails the requested member's next heartbeat once, with a rebalance error, without asking the broker", async () => {
    installGroupRejoin(FakeGroup, rebalanceError);
    const member = new FakeGroup('app', 'm-1');
    const other = new FakeGroup('app', 'm-2');
    const otherGroup = new FakeGroup('other-app', 'm-1');

    expect(requestGroupRejoin('app', 'm-1')).toBe(true);
    await expect(member.heartbeat({ interval: 0 })).rejects.toMatchObject({
      type: 'REBALANCE_IN_PROGRESS',
      message: 'rejoining the group as the same member (probing rebalance)',
    });
    expect(member.heartbeats).toBe(0);
    await member.heartbeat({ interval: 0 });
    expect(member.heartbeats).toBe(1);
    await other.heartbeat({ interval: 0 });
    await otherGroup.heartbeat({ interval: 0 });
    expect([other.heartbeats, otherGroup.heartbeats]).toEqual([1, 1]);
  });

  it('patches once, and drops a cancelled request', async () => {
    installGroupRejoin(FakeGroup, rebalanceError);
    const patched = FakeGroup.prototype.heartbeat;
    installGroupRejoin(FakeGroup, rebalanceError);
    expect(FakeGroup.prototype.heartbeat).toBe(patched);
    const member = new FakeGroup('app', 'm-3');
    requestGroupRejoin('app', 'm-3');
    await expect(member.heartbeat({ interval: 0 })).rejects.toThrow('probing rebalance');
    await member.heartbeat({ interval: 0 });
    expect(member.heartbeats).toBe(1);

    requestGroupRejoin('app', 'm-3');
    cancelGroupRejoin('app', 'm-3');
    expect(groupRejoinPending('app', 'm-3')).toBe(false);
    await member.heartbeat({ interval: 0 });
    expect(member.heartbeats).toBe(2);
  });

  it("makes kafkajs' own consumer group fail with an error its runner answers by rejoining", async () => {
    const kafkajs = locateKafkajs();
    const groupClass = kafkajs.load<{ prototype: HeartbeatingConsumerGroup }>(
      './src/consumer/consumerGroup',
    );
    const errors = kafkajs.load<{
      KafkaJSProtocolError: new (e: object) => Error;
      isRebalancing(e: unknown): boolean;
      isKafkaJSError(e: unknown): boolean;
    }>('./src/errors');
    installGroupRejoin(
      groupClass,
      (message) =>
        new errors.KafkaJSProtocolError({
          type: 'REBALANCE_IN_PROGRESS',
          code: 27,
          retriable: false,
          message,
        }),
    );
    const group = Object.assign(Object.create(groupClass.prototype) as HeartbeatingConsumerGroup, {
      groupId: 'app',
      memberId: 'm-4',
    });
    requestGroupRejoin('app', 'm-4');
    const error = await group.heartbeat({ interval: 0 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(errors.isRebalancing(error)).toBe(true);
    expect(errors.isKafkaJSError(error)).toBe(true);
  });

  it('runs and awaits the before-rejoin hook (the eager revocation commit) before the member rejoins', async () => {
    installGroupRejoin(FakeGroup, rebalanceError);
    const member = new FakeGroup('app', 'm-5');
    const remove = beforeGroupRejoin('app', 'm-5', 1000, async () => {
      await new Promise((r) => setTimeout(r, 20));
      member.steps.push('commit');
    });
    await member.joinAndSync();
    expect(member.steps).toEqual(['commit', 'join']);

    // A failing hook never stops the rejoin; a first join (no member id yet) runs no hook.
    remove();
    beforeGroupRejoin('app', 'm-5', 1000, () => Promise.reject(new Error('commit failed')));
    await member.joinAndSync();
    const newcomer = new FakeGroup('app', null);
    await newcomer.joinAndSync();
    expect([member.steps, newcomer.steps]).toEqual([['commit', 'join', 'join'], ['join']]);
  });

  it("rejoins after the hook's time limit when the hook hangs, and runs no removed hook", async () => {
    installGroupRejoin(FakeGroup, rebalanceError);
    const member = new FakeGroup('app', 'm-6');
    beforeGroupRejoin('app', 'm-6', 30, () => new Promise<void>(() => undefined));
    const started = Date.now();
    await member.joinAndSync();
    expect(member.steps).toEqual(['join']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);

    let runs = 0;
    const remove = beforeGroupRejoin('app', 'm-6', 1000, async () => void runs++);
    remove();
    await member.joinAndSync();
    expect(runs).toBe(0);
  });
});

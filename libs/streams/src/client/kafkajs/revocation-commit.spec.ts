import { installGroupRejoin, type HeartbeatingConsumerGroup } from './group-rejoin';
import { RevocationCommit } from './revocation-commit';

class FakeGroup implements HeartbeatingConsumerGroup {
  readonly steps: string[] = [];
  constructor(
    readonly groupId: string,
    public memberId: string | null,
  ) {}
  async heartbeat(): Promise<void> {}
  async joinAndSync(): Promise<void> {
    this.steps.push('join');
  }
}

describe('RevocationCommit (commit before kafkajs rejoins, eager onPartitionsRevoked)', () => {
  beforeAll(() => installGroupRejoin(FakeGroup, (message) => new Error(message)));

  const setup = () => {
    const commits: string[] = [];
    const revocation = new RevocationCommit(
      () => ({ applicationId: 'app', sessionTimeoutMs: 6000 }),
      async () => void commits.push('commit'),
      async () => void commits.push('lost'),
    );
    return { commits, revocation };
  };

  it('commits before the member of the last generation rejoins, each time', async () => {
    const { commits, revocation } = setup();
    const member = new FakeGroup('app', 'm-1');
    revocation.joined('m-1');
    await member.joinAndSync();
    await member.joinAndSync();
    expect(commits).toEqual(['commit', 'commit']);
    expect(member.steps).toEqual(['join', 'join']);
  });

  it('follows the member id: a new id replaces the old one', async () => {
    const { commits, revocation } = setup();
    revocation.joined('m-1');
    revocation.joined('m-2');
    await new FakeGroup('app', 'm-1').joinAndSync();
    expect(commits).toEqual([]);
    await new FakeGroup('app', 'm-2').joinAndSync();
    expect(commits).toEqual(['commit']);
  });

  it('commits nothing on rejoins after the thread stopped, or in another group', async () => {
    const { commits, revocation } = setup();
    revocation.joined('m-3');
    await new FakeGroup('other-app', 'm-3').joinAndSync();
    revocation.stop();
    await new FakeGroup('app', 'm-3').joinAndSync();
    expect(commits).toEqual([]);
  });

  it('drops the tasks uncommitted before a member the coordinator forgot joins again (onPartitionsLost)', async () => {
    const { commits, revocation } = setup();
    const member = new FakeGroup('app', 'm-4');
    revocation.joined('m-4');
    await member.heartbeat();
    // UNKNOWN_MEMBER_ID: kafkajs clears the member id and joins again, telling nobody.
    member.memberId = null;
    await member.joinAndSync();
    expect(commits).toEqual(['lost']);
    expect(member.steps).toEqual(['join']);
  });

  it('runs nothing on the first join of a member, nor on a loss after the thread stopped', async () => {
    const { commits, revocation } = setup();
    await new FakeGroup('app', null).joinAndSync();
    const member = new FakeGroup('app', 'm-5');
    revocation.joined('m-5');
    await member.heartbeat();
    revocation.stop();
    member.memberId = null;
    await member.joinAndSync();
    expect(commits).toEqual([]);
  });
});

import { encodeInfo, type AssignmentInfo } from '../../../cluster/internals/assignment-info';
import type { DescribedGroup } from '../../../client/cluster-admin';
import { lastStableAssignment } from './last-stable-assignment';

const info: AssignmentInfo = {
  version: 1,
  processId: 'p-a',
  active: ['0_0'],
  standby: ['0_1'],
  warmup: [],
  hosts: [
    { processId: 'p-a', endpoint: 'a:1', active: ['0_0'], standby: ['0_1'] },
    { processId: 'p-b', endpoint: 'b:1', active: ['0_1'], standby: ['0_0'] },
  ],
};
const classic = { applicationId: 'app', groupProtocol: 'classic' as const };

function adminOf(described: DescribedGroup | Error | 'never') {
  const calls: string[] = [];
  return {
    calls,
    describeGroup: (groupId: string): Promise<DescribedGroup> => {
      calls.push(groupId);
      if (described === 'never') return new Promise<DescribedGroup>(() => undefined);
      return described instanceof Error ? Promise.reject(described) : Promise.resolve(described);
    },
  };
}
const member = (userData: Buffer) => ({
  memberId: `m-${userData.length}`,
  groupInstanceId: null,
  assignmentUserData: userData,
});

describe('lastStableAssignment', () => {
  const debug: string[] = [];
  const logger = { debug: (m: string) => debug.push(m) };
  beforeEach(() => (debug.length = 0));

  it("answers the host map of a stable group's member, skipping members without our user data", async () => {
    const admin = adminOf({
      state: 'Stable',
      members: [member(Buffer.alloc(0)), member(Buffer.from('not json')), member(encodeInfo(info))],
    });
    expect(await lastStableAssignment(admin, classic, logger)).toEqual(info);
    expect(admin.calls).toEqual(['app']);
  });

  it('answers undefined, with a debug line, for a group that is not stable', async () => {
    const admin = adminOf({ state: 'PreparingRebalance', members: [] });
    expect(await lastStableAssignment(admin, classic, logger)).toBeUndefined();
    expect(debug).toEqual(['group app is PreparingRebalance: no host map borrowed']);
  });

  it('answers undefined when the broker fails or does not answer in time', async () => {
    expect(await lastStableAssignment(adminOf(new Error('boom')), classic, logger)).toBeUndefined();
    expect(await lastStableAssignment(adminOf('never'), classic, logger, 20)).toBeUndefined();
    expect(debug).toEqual([
      'group app not described (Error: boom): no host map borrowed',
      'group app not described within 20 ms: no host map borrowed',
    ]);
  });

  it('does not ask under the streams protocol (its first heartbeat brings the endpoints)', async () => {
    const admin = adminOf({ state: 'Stable', members: [member(encodeInfo(info))] });
    const streams = { applicationId: 'app', groupProtocol: 'streams' as const };
    expect(await lastStableAssignment(admin, streams, logger)).toBeUndefined();
    expect(admin.calls).toEqual([]);
  });
});

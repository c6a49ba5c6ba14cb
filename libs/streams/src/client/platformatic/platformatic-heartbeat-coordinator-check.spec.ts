import { GroupCoordinatorUnconfirmedError } from '../../errors/internals/group-coordinator-unconfirmed.error';
import {
  PlatformaticHeartbeatCoordinatorCheck,
  type HeartbeatCoordinatorAsker,
} from './platformatic-heartbeat-coordinator-check';

describe('PlatformaticHeartbeatCoordinatorCheck', () => {
  function check(coordinator: number) {
    const asked: string[] = [];
    let made = 0;
    let closed = 0;
    const asker: HeartbeatCoordinatorAsker = {
      confirmGroupCoordinator: async (groupId, nodeId) => {
        asked.push(`${groupId}@${nodeId}`);
        if (nodeId !== coordinator) throw new Error(`node ${coordinator} coordinates ${groupId}`);
      },
      close: async () => void closed++,
    };
    const heartbeats = new PlatformaticHeartbeatCoordinatorCheck('g', () => {
      made++;
      return asker;
    });
    return { heartbeats, asked, made: () => made, closed: () => closed };
  }

  it('asks about the node that answered the latest heartbeat, on one admin made at the first check', async () => {
    const { heartbeats, asked, made, closed } = check(2);
    heartbeats.answered(3); // the hung former coordinator, as it resumes
    await expect(heartbeats.confirm()).rejects.toThrow('node 2 coordinates g');
    heartbeats.answered(null); // platformatic forgot its coordinator: the last answer counts
    heartbeats.answered(2);
    await expect(heartbeats.confirm()).resolves.toBeUndefined();
    expect(asked).toEqual(['g@3', 'g@2']);
    expect(made()).toBe(1);
    await heartbeats.close();
    expect(closed()).toBe(1);
    await expect(heartbeats.confirm()).rejects.toThrow('UNCONFIRMED: the member is closing');
    expect(made()).toBe(1); // no admin made after the close
  });

  it('is unconfirmed, retriably and without asking, before any heartbeat was answered', async () => {
    const { heartbeats, made } = check(1);
    const none = heartbeats.confirm();
    await expect(none).rejects.toThrow(GroupCoordinatorUnconfirmedError);
    await expect(none).rejects.toThrow(
      'the heartbeat answer of group g is not confirmed as its coordinator',
    );
    expect(made()).toBe(0);
    await heartbeats.close(); // nothing made: nothing to close
  });
});
